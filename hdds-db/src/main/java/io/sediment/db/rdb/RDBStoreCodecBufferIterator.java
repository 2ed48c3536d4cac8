package io.sediment.db.rdb;

import io.sediment.db.IteratorType;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.managed.ManagedRocksIterator;

/**
 * The zero-copy iterator: keys and values are read into two pooled direct buffers that the
 * iterator owns and reuses. A returned entry is a view that stays valid only until the next
 * {@code next()}, {@code seek*} or {@code close()}; decode or copy it before then. The buffers
 * are released on close. Contract in {@link RDBStoreAbstractIterator}.
 */
public final class RDBStoreCodecBufferIterator extends RDBStoreAbstractIterator<CodecBuffer> {

  private final CodecBuffer keyBuffer = CodecBuffer.allocateDirect(256);
  private final CodecBuffer valueBuffer;

  public RDBStoreCodecBufferIterator(ManagedRocksIterator nativeIterator, RDBTable table,
      IteratorType type) {
    super(nativeIterator, table, type);
    this.valueBuffer = type.readValue() ? CodecBuffer.allocateDirect(4096) : null;
  }

  @Override
  protected CodecBuffer readKey() {
    keyBuffer.readFrom(nativeIterator()::key);
    return keyBuffer;
  }

  @Override
  protected CodecBuffer readValue() {
    valueBuffer.readFrom(nativeIterator()::value);
    return valueBuffer;
  }

  @Override
  protected void seekNative(CodecBuffer target) {
    nativeIterator().seek(target.asReadOnlyByteBuffer());
  }

  @Override
  protected void delete(RDBTable table, CodecBuffer key) {
    table.delete(key);
  }

  @Override
  protected void closeResources() {
    keyBuffer.release();
    if (valueBuffer != null) {
      valueBuffer.release();
    }
  }

  @Override
  protected byte[] toBytes(CodecBuffer raw) {
    return raw.getArray();
  }
}
