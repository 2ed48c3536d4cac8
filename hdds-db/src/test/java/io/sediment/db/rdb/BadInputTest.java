package io.sediment.db.rdb;

import static io.sediment.db.testing.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBDefinition;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyFilter;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.ByteArrayCodec;
import io.sediment.db.codec.Bytes;
import io.sediment.db.codec.LongCodec;
import io.sediment.db.codec.StringCodec;
import io.sediment.db.testing.TestStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad arguments are rejected before anything is written, as the {@link Table} Javadoc promises:
 * {@code null} keys, values, batches, filters and filter prefixes throw
 * {@link NullPointerException} with a message; keys, prefixes and range ends longer than the
 * store's key limit ({@link DBStoreBuilder#setMaxKeyBytes}) throw
 * {@link IllegalArgumentException} on every read, write, batch, iterator and range call, for the
 * raw and the typed table; unknown tables, definitions with other codecs and invalid table names
 * throw {@link IllegalArgumentException}. After every rejected call, a full scan of every table
 * (and the pending batch) is unchanged.
 */
class BadInputTest {

  private static final int MAX_KEY = 16;
  /** 17 bytes: one over the limit. */
  private static final String LONG = "k".repeat(MAX_KEY + 1);
  /** 6 characters but 18 UTF-8 bytes: the limit is on encoded bytes. */
  private static final String LONG_ENCODED = "\u4e2d".repeat(6);

  @TempDir Path dir;
  private DBStore store;
  private Table<byte[], byte[]> raw;
  private Table<String, String> typed;
  private Map<String, String> before;

  @BeforeEach
  void open() {
    store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir)
        .setProfile(TestStores.smallProfile()).setMaxKeyBytes(MAX_KEY)
        .setCloseTimeout(Duration.ofSeconds(5)).build();
    raw = store.getTable("bytes");
    typed = store.getTable(TestStores.STRINGS);
    for (int i = 1; i <= 5; i++) {
      raw.put(b("k" + i), b("v" + i));
      typed.put("s" + i, "w" + i);
    }
    raw.put(b("k".repeat(MAX_KEY)), b("longest"));
    before = scanAll();
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** Every entry of every table, by the raw bytes. */
  private Map<String, String> scanAll() {
    Map<String, String> all = new LinkedHashMap<>();
    for (String name : store.listTables()) {
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = store.getTable(name).iterator()) {
        it.forEachRemaining(kv -> all.put(name + ":" + Bytes.toDisplayString(kv.getKey()),
            Bytes.toDisplayString(kv.getValue())));
      }
    }
    return all;
  }

  /** Expects {@code call} to throw {@code type} and the store to be unchanged afterwards. */
  private <T extends Throwable> T rejected(Class<T> type, String what, Executable call) {
    T e = assertThrows(type, call, what);
    assertEquals(before, scanAll(), "store changed by rejected call: " + what);
    return e;
  }

  private void rejectedNull(String what, Executable call) {
    NullPointerException e = rejected(NullPointerException.class, what, call);
    assertNotNull(e.getMessage(), "NPE without a message: " + what);
    assertFalse(e.getMessage().isBlank(), "NPE with a blank message: " + what);
  }

  private void rejectedArgument(String what, Executable call) {
    IllegalArgumentException e = rejected(IllegalArgumentException.class, what, call);
    assertNotNull(e.getMessage(), what);
  }

  /** Calls that create an iterator close it, so a call that wrongly succeeds does not leak. */
  private static Executable opening(java.util.function.Supplier<? extends TableIterator<?, ?>> open) {
    return () -> {
      try (TableIterator<?, ?> it = open.get()) {
        it.hasNext();
      }
    };
  }

  // ---- nulls --------------------------------------------------------------------------------

  @Test
  void nullKeysAndValuesThrowNullPointerWithAMessage() {
    byte[] k = b("k1");
    rejectedNull("raw put null key", () -> raw.put(null, b("v")));
    rejectedNull("raw put null value", () -> raw.put(k, null));
    rejectedNull("raw get", () -> raw.get(null));
    rejectedNull("raw getIfExist", () -> raw.getIfExist(null));
    rejectedNull("raw getAll", () -> raw.getAll(java.util.Arrays.asList(k, null)));
    rejectedNull("raw isExist", () -> raw.isExist(null));
    rejectedNull("raw delete", () -> raw.delete(null));
    rejectedNull("raw deleteRange from", () -> raw.deleteRange(null, k));
    rejectedNull("raw deleteRange to", () -> raw.deleteRange(k, null));

    rejectedNull("typed put null key", () -> typed.put(null, "v"));
    rejectedNull("typed put null value", () -> typed.put("s1", null));
    rejectedNull("typed get", () -> typed.get(null));
    rejectedNull("typed getIfExist", () -> typed.getIfExist(null));
    rejectedNull("typed getAll", () -> typed.getAll(java.util.Arrays.asList("s1", null)));
    rejectedNull("typed isExist", () -> typed.isExist(null));
    rejectedNull("typed delete", () -> typed.delete(null));
    rejectedNull("typed deleteRange from", () -> typed.deleteRange(null, "s3"));
    rejectedNull("typed deleteRange to", () -> typed.deleteRange("s1", null));

    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = raw.iterator();
        TableIterator<String, KeyValue<String, String>> tit = typed.iterator()) {
      rejectedNull("raw iterator seek", () -> it.seek(null));
      rejectedNull("typed iterator seek", () -> tit.seek(null));
      assertEquals("k1", new String(it.next().getKey(), StandardCharsets.UTF_8),
          "the iterator still works");
      assertEquals("s1", tit.next().getKey());
    }
  }

  @Test
  void nullBatchesAndNullBatchEntriesThrowNullPointerAndAddNothing() {
    rejectedNull("raw putWithBatch", () -> raw.putWithBatch(null, b("x"), b("v")));
    rejectedNull("raw deleteWithBatch", () -> raw.deleteWithBatch(null, b("k1")));
    rejectedNull("raw deleteRangeWithBatch", () -> raw.deleteRangeWithBatch(null, b("k"), b("l")));
    rejectedNull("typed putWithBatch", () -> typed.putWithBatch(null, "x", "v"));
    rejectedNull("typed deleteWithBatch", () -> typed.deleteWithBatch(null, "s1"));
    rejectedNull("typed deleteRangeWithBatch", () -> typed.deleteRangeWithBatch(null, "s", "t"));
    rejectedNull("commitBatchOperation", () -> store.commitBatchOperation(null));

    try (BatchOperation batch = store.initBatchOperation()) {
      rejectedNull("raw batch null key", () -> raw.putWithBatch(batch, null, b("v")));
      rejectedNull("raw batch null value", () -> raw.putWithBatch(batch, b("x"), null));
      rejectedNull("raw batch delete null", () -> raw.deleteWithBatch(batch, null));
      rejectedNull("raw batch range from", () -> raw.deleteRangeWithBatch(batch, null, b("z")));
      rejectedNull("raw batch range to", () -> raw.deleteRangeWithBatch(batch, b("a"), null));
      rejectedNull("typed batch null key", () -> typed.putWithBatch(batch, null, "v"));
      rejectedNull("typed batch null value", () -> typed.putWithBatch(batch, "x", null));
      rejectedNull("typed batch delete null", () -> typed.deleteWithBatch(batch, null));
      rejectedNull("typed batch range from", () -> typed.deleteRangeWithBatch(batch, null, "z"));
      rejectedNull("typed batch range to", () -> typed.deleteRangeWithBatch(batch, "a", null));
      assertEquals(0, batch.size(), "rejected batch calls added nothing");
      batch.commit();
    }
    assertEquals(before, scanAll());
  }

  @Test
  void nullFiltersAndFilterPrefixesThrowNullPointer() {
    rejectedNull("raw null filter array",
        () -> raw.getRangeKVs(null, 5, null, (KeyFilter[]) null));
    rejectedNull("raw null filter element",
        () -> raw.getRangeKVs(null, 5, null, key -> true, null));
    rejectedNull("raw null filter on the count-one fast path",
        () -> raw.getRangeKVs(b("k1"), 1, null, (KeyFilter) null));
    rejectedNull("raw sequential null filter",
        () -> raw.getSequentialRangeKVs(null, 5, null, (KeyFilter) null));
    rejectedNull("typed null filter array",
        () -> typed.getRangeKVs(null, 5, null, (KeyFilter[]) null));
    rejectedNull("typed null filter element",
        () -> typed.getSequentialRangeKVs("s1", 5, "s", (KeyFilter) null));
    rejectedNull("KeyFilter.prefix(null)", () -> KeyFilter.prefix(null));
    rejectedNull("KeyFilter.notPrefix(null)", () -> KeyFilter.notPrefix(null));
  }

  @Test
  void nullTableLookupsThrowNullPointer() {
    rejectedNull("getTable(null name)", () -> store.getTable((String) null));
    rejectedNull("getTable(null definition)", () -> store.getTable((TableDefinition<?, ?>) null));
  }

  // ---- oversize keys --------------------------------------------------------------------------

  @Test
  void keysAtTheLimitAreAccepted() {
    byte[] max = b("m".repeat(MAX_KEY));
    raw.put(max, b("ok"));
    assertEquals("ok", new String(raw.get(max), StandardCharsets.UTF_8));
    typed.put("t".repeat(MAX_KEY), "ok");
    assertEquals("ok", typed.get("t".repeat(MAX_KEY)));
    assertEquals(1, typed.getRangeKVs("t".repeat(MAX_KEY), 1, null).size());
    raw.deleteRange(max, max);
    raw.delete(max);
    typed.delete("t".repeat(MAX_KEY));
    assertEquals(before, scanAll());
  }

  @Test
  void oversizeRawKeysAreRejectedEverywhere() {
    byte[] big = b(LONG);
    byte[] ok = b("k1");
    rejectedArgument("put", () -> raw.put(big, b("v")));
    rejectedArgument("get", () -> raw.get(big));
    rejectedArgument("getIfExist", () -> raw.getIfExist(big));
    rejectedArgument("getAll", () -> raw.getAll(List.of(ok, big)));
    rejectedArgument("isExist", () -> raw.isExist(big));
    rejectedArgument("delete", () -> raw.delete(big));
    rejectedArgument("deleteRange from", () -> raw.deleteRange(big, b("zz")));
    rejectedArgument("deleteRange to", () -> raw.deleteRange(ok, big));
    rejectedArgument("iterator prefix", opening(() -> raw.iterator(big)));
    rejectedArgument("key-only iterator prefix",
        opening(() -> raw.iterator(big, IteratorType.KEY_ONLY)));
    rejectedArgument("rangeIterator both ends", opening(
        () -> raw.rangeIterator(ok, big, IteratorType.KEY_AND_VALUE)));
    rejectedArgument("getRangeKVs startKey", () -> raw.getRangeKVs(big, 5, null));
    rejectedArgument("getRangeKVs startKey fast path", () -> raw.getRangeKVs(big, 1, null));
    rejectedArgument("getRangeKVs prefix", () -> raw.getRangeKVs(null, 5, big));
    rejectedArgument("getSequentialRangeKVs prefix", () -> raw.getSequentialRangeKVs(null, 5, big));
    try (BatchOperation batch = store.initBatchOperation()) {
      rejectedArgument("putWithBatch", () -> raw.putWithBatch(batch, big, b("v")));
      rejectedArgument("deleteWithBatch", () -> raw.deleteWithBatch(batch, big));
      rejectedArgument("deleteRangeWithBatch from", () -> raw.deleteRangeWithBatch(batch, big, b("zz")));
      rejectedArgument("deleteRangeWithBatch to", () -> raw.deleteRangeWithBatch(batch, ok, big));
      assertEquals(0, batch.size());
      batch.commit();
    }
    assertEquals(before, scanAll());
  }

  @Test
  void oversizeTypedKeysAreRejectedEverywhere() {
    for (String big : List.of(LONG, LONG_ENCODED)) {
      rejectedArgument("put " + big, () -> typed.put(big, "v"));
      rejectedArgument("get " + big, () -> typed.get(big));
      rejectedArgument("getIfExist " + big, () -> typed.getIfExist(big));
      rejectedArgument("getAll " + big, () -> typed.getAll(List.of("s1", big)));
      rejectedArgument("isExist " + big, () -> typed.isExist(big));
      rejectedArgument("delete " + big, () -> typed.delete(big));
      rejectedArgument("deleteRange from " + big, () -> typed.deleteRange(big, "\uffff"));
      rejectedArgument("deleteRange to " + big, () -> typed.deleteRange("a", big));
      rejectedArgument("iterator prefix " + big, opening(() -> typed.iterator(big)));
      rejectedArgument("rangeIterator both ends " + big,
          opening(() -> typed.rangeIterator("a", big, IteratorType.KEY_AND_VALUE)));
      rejectedArgument("getRangeKVs startKey " + big, () -> typed.getRangeKVs(big, 5, null));
      rejectedArgument("getRangeKVs fast path " + big, () -> typed.getRangeKVs(big, 1, null));
      rejectedArgument("getRangeKVs prefix " + big, () -> typed.getRangeKVs(null, 5, big));
      try (BatchOperation batch = store.initBatchOperation()) {
        rejectedArgument("putWithBatch " + big, () -> typed.putWithBatch(batch, big, "v"));
        rejectedArgument("deleteWithBatch " + big, () -> typed.deleteWithBatch(batch, big));
        rejectedArgument("deleteRangeWithBatch from " + big,
            () -> typed.deleteRangeWithBatch(batch, big, "\uffff"));
        rejectedArgument("deleteRangeWithBatch to " + big,
            () -> typed.deleteRangeWithBatch(batch, "a", big));
        assertEquals(0, batch.size());
        batch.commit();
      }
    }
    assertEquals(before, scanAll());
  }

  /**
   * DBStoreBuilder#setMaxKeyBytes: "Keys (and prefixes and range ends) longer than this many bytes
   * are rejected". A range iterator with only one end given must check that end too.
   */
  @Test
  void oversizeRangeIteratorEndIsRejectedWhenTheOtherEndIsOpen() {
    byte[] big = b(LONG);
    assertAll(
        () -> rejectedArgument("raw rangeIterator from, open end",
            opening(() -> raw.rangeIterator(big, null, IteratorType.KEY_AND_VALUE))),
        () -> rejectedArgument("raw rangeIterator open start, to",
            opening(() -> raw.rangeIterator(null, big, IteratorType.KEY_AND_VALUE))),
        () -> rejectedArgument("typed rangeIterator from, open end",
            opening(() -> typed.rangeIterator(LONG, null, IteratorType.KEY_AND_VALUE))),
        () -> rejectedArgument("typed rangeIterator open start, to",
            opening(() -> typed.rangeIterator(null, LONG, IteratorType.KEY_AND_VALUE))));
  }

  // ---- tables and definitions -----------------------------------------------------------------

  @Test
  void unknownTableNamesAreRejected() {
    rejectedArgument("getTable(name)", () -> store.getTable("nope"));
    rejectedArgument("getTable(definition)", () -> store.getTable(
        TableDefinition.of("nope", StringCodec.get(), StringCodec.get())));
    rejectedArgument("getTable(default)", () -> store.getTable("default"));
    rejectedArgument("flush", () -> store.flush("nope"));
    rejectedArgument("compactRange", () -> store.compactRange("nope", null, null));
  }

  @Test
  void aDefinitionWithOtherCodecsIsRejectedAndAnEqualOneAccepted() {
    IllegalArgumentException e = rejected(IllegalArgumentException.class, "strings as bytes",
        () -> store.getTable(TableDefinition.of("strings", ByteArrayCodec.get(), ByteArrayCodec.get())));
    assertTrue(e.getMessage().contains("strings"), e.getMessage());
    rejectedArgument("bytes as strings", () -> store.getTable(
        TableDefinition.of("bytes", StringCodec.get(), StringCodec.get())));
    rejectedArgument("other value codec", () -> store.getTable(
        TableDefinition.of("strings", StringCodec.get(), LongCodec.get())));
    assertSame(store.getTable(TestStores.STRINGS),
        store.getTable(TableDefinition.of("strings", StringCodec.get(), StringCodec.get())),
        "an equal definition names the same table");
  }

  @Test
  void invalidTableNamesAreRejected() {
    ByteArrayCodec c = ByteArrayCodec.get();
    List<String> invalid = new ArrayList<>(List.of("", "default", "x".repeat(256)));
    for (String name : invalid) {
      rejectedArgument("name '" + name + "'", () -> TableDefinition.of(name, c, c));
    }
    rejectedNull("null name", () -> TableDefinition.of(null, c, c));
    rejectedNull("null key codec", () -> TableDefinition.of("t", null, c));
    rejectedNull("null value codec", () -> TableDefinition.of("t", c, null));
    assertEquals("x".repeat(255), TableDefinition.of("x".repeat(255), c, c).name());
    rejectedArgument("duplicate table", () -> DBDefinition.of("d",
        TableDefinition.of("t", c, c), TableDefinition.of("t", StringCodec.get(), c)));
  }

  /** TableDefinition's Javadoc limits the name to 255 bytes, not 255 UTF-16 characters. */
  @Test
  void tableNameLimitCountsBytesNotCharacters() {
    ByteArrayCodec c = ByteArrayCodec.get();
    String name = "\u00e9".repeat(128); // 128 chars, 256 UTF-8 bytes
    rejectedArgument("256-byte name", () -> TableDefinition.of(name, c, c));
  }
}
