package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.sediment.db.DBDefinition;
import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.db.testing.Latin1Codec;
import io.sediment.db.testing.TableIteratorContract;
import io.sediment.db.testing.TestStores;
import java.nio.charset.StandardCharsets;

/**
 * The {@link TableIteratorContract} for {@link TypedTableIterator}, the iterator every typed table
 * (so every om-metadata table) hands out: {@link TypedTable#iterator} and
 * {@link TypedTable#rangeIterator} of the table {@code bytes} typed as ISO-8859-1 strings, so each
 * entry is decoded into objects the caller keeps and seek targets are encoded by the codec.
 */
class TypedTableIteratorContractTest extends TableIteratorContract<String, String> {

  /** The table {@code bytes} with String keys and values, one byte a character. */
  static final TableDefinition<String, String> LATIN1 =
      TableDefinition.of("bytes", Latin1Codec.get(), Latin1Codec.get());
  static final DBDefinition DEFINITION = DBDefinition.of("test", LATIN1, TestStores.STRINGS);

  static String text(byte[] bytes) {
    return bytes == null ? null : new String(bytes, StandardCharsets.ISO_8859_1);
  }

  static TableIterator<String, KeyValue<String, String>> checked(
      TableIterator<String, KeyValue<String, String>> it) {
    return assertInstanceOf(TypedTableIterator.class, it);
  }

  @Override
  protected DBDefinition definition() {
    return DEFINITION;
  }

  @Override
  protected TableIterator<String, KeyValue<String, String>> newIterator(DBStore store,
      byte[] prefix, IteratorType type) {
    return checked(store.getTable(LATIN1).iterator(text(prefix), type));
  }

  @Override
  protected TableIterator<String, KeyValue<String, String>> newRangeIterator(DBStore store,
      byte[] from, byte[] to, IteratorType type) {
    return checked(store.getTable(LATIN1).rangeIterator(text(from), text(to), type));
  }

  @Override
  protected byte[] keyBytes(String key) {
    return key.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Override
  protected byte[] valueBytes(String value) {
    return value.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Override
  protected String toKey(byte[] bytes) {
    return text(bytes);
  }
}
