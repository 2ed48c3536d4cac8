package io.sediment.db.rdb;

import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.Bytes;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.testing.TableIteratorContract;

/**
 * The {@link TableIteratorContract} for {@link RDBStoreCodecBufferIterator}, from
 * {@link RDBTable#codecBufferIterator}: a prefix is the range
 * {@code [prefix, Bytes.prefixSuccessor(prefix))}. Its entries are views into buffers the
 * iterator reuses, so the suite copies them to {@code byte[]} as soon as they are returned; seek
 * targets are pooled direct buffers released right after the seek.
 */
class CodecBufferIteratorContractTest extends TableIteratorContract<CodecBuffer, CodecBuffer> {

  private static RDBTable bytes(DBStore store) {
    return ((RDBStore) store).getTable("bytes");
  }

  @Override
  protected TableIterator<CodecBuffer, KeyValue<CodecBuffer, CodecBuffer>> newIterator(
      DBStore store, byte[] prefix, IteratorType type) {
    return bytes(store).codecBufferIterator(prefix,
        prefix == null ? null : Bytes.prefixSuccessor(prefix), type);
  }

  @Override
  protected TableIterator<CodecBuffer, KeyValue<CodecBuffer, CodecBuffer>> newRangeIterator(
      DBStore store, byte[] from, byte[] to, IteratorType type) {
    return bytes(store).codecBufferIterator(from, to, type);
  }

  @Override
  protected byte[] keyBytes(CodecBuffer key) {
    return key.getArray();
  }

  @Override
  protected byte[] valueBytes(CodecBuffer value) {
    return value.getArray();
  }

  @Override
  protected CodecBuffer toKey(byte[] bytes) {
    return CodecBuffer.copyOf(bytes);
  }

  @Override
  protected void releaseKey(CodecBuffer key) {
    key.release();
  }
}
