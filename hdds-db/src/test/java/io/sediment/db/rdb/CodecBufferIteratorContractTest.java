package io.sediment.db.rdb;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.Bytes;
import io.sediment.db.codec.CodecBuffer;

/**
 * The {@link io.sediment.db.TableIterator} contract of {@link AbstractIteratorContractTest} for
 * {@link RDBStoreCodecBufferIterator}, from {@link RDBTable#codecBufferIterator}: a prefix is the
 * range {@code [prefix, Bytes.prefixSuccessor(prefix))}. Its entries are views into buffers the
 * iterator reuses, so the contract test copies them to {@code byte[]} as soon as they are
 * returned; seek targets are pooled direct buffers released right after the seek.
 */
class CodecBufferIteratorContractTest extends AbstractIteratorContractTest<CodecBuffer> {

  @Override
  protected TableIterator<CodecBuffer, KeyValue<CodecBuffer, CodecBuffer>> newWholeTableIterator(
      RDBTable table, IteratorType type) {
    return table.codecBufferIterator(null, null, type);
  }

  @Override
  protected TableIterator<CodecBuffer, KeyValue<CodecBuffer, CodecBuffer>> newPrefixIterator(
      RDBTable table, byte[] prefix, IteratorType type) {
    return table.codecBufferIterator(prefix, Bytes.prefixSuccessor(prefix), type);
  }

  @Override
  protected TableIterator<CodecBuffer, KeyValue<CodecBuffer, CodecBuffer>> newRangeIterator(
      RDBTable table, byte[] from, byte[] to, IteratorType type) {
    return table.codecBufferIterator(from, to, type);
  }

  @Override
  protected byte[] toBytes(CodecBuffer raw) {
    return raw.getArray();
  }

  @Override
  protected CodecBuffer toRaw(byte[] bytes) {
    return CodecBuffer.copyOf(bytes);
  }

  @Override
  protected void releaseRaw(CodecBuffer raw) {
    raw.release();
  }
}
