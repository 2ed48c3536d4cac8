package io.sediment.db.rdb;

import io.sediment.db.IteratorType;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.managed.ManagedRocksIterator;

/**
 * The codec-buffer iterator: keys and values are read into two pooled direct buffers that the
 * iterator owns and reuses (through the scratch array, {@link #readIntoScratch}, when they fit
 * it, which allocates nothing; straight into the buffer, grown, when they do not). A returned
 * entry is a view that stays valid only until the next {@code next()}, {@code seek*} or
 * {@code close()}; decode or copy it before then. The buffers are released on close, or by the
 * store's close if the owner left the iterator open. Contract in
 * {@link RDBStoreAbstractIterator}.
 */
public final class RDBStoreCodecBufferIterator extends RDBStoreAbstractIterator<CodecBuffer> {

  private final CodecBuffer keyBuffer = CodecBuffer.allocateDirect(256);
  private final CodecBuffer valueBuffer;

  public RDBStoreCodecBufferIterator(ManagedRocksIterator nativeIterator, RDBTable table,
      IteratorType type) {
    super(nativeIterator, table, type);
    this.valueBuffer = type.readValue() ? CodecBuffer.allocateDirect(4096) : null;
    releaseResourcesOnStoreClose();
  }

  @Override
  protected CodecBuffer readKey() {
    return read(keyBuffer, true);
  }

  @Override
  protected CodecBuffer readValue() {
    return read(valueBuffer, false);
  }

  private CodecBuffer read(CodecBuffer into, boolean key) {
    int size = readIntoScratch(key);
    if (size <= SCRATCH) {
      into.clear().put(scratch(), 0, Math.max(0, size));
    } else {
      into.readFrom(key ? nativeIterator()::key : nativeIterator()::value);
    }
    return into;
  }

  @Override
  protected void seekNative(CodecBuffer target, boolean strictlyAfter) {
    if (!strictlyAfter) {
      nativeIterator().seek(target.asReadOnlyByteBuffer());
      return;
    }
    try (CodecBuffer after = CodecBuffer.allocateDirect(target.readableBytes() + 1)) {
      after.put(target.asReadOnlyByteBuffer()).put((byte) 0);
      nativeIterator().seek(after.asReadOnlyByteBuffer());
    }
  }

  @Override
  protected void delete(RDBTable table, CodecBuffer key) {
    table.delete(key);
  }

  /**
   * Returns the buffers to the pool; for the store's close, drops them instead
   * ({@link CodecBuffer#discard()}).
   */
  @Override
  protected void closeResources(boolean byOwner) {
    release(keyBuffer, byOwner);
    if (valueBuffer != null) {
      release(valueBuffer, byOwner);
    }
  }

  private static void release(CodecBuffer buffer, boolean toPool) {
    if (toPool) {
      buffer.release();
    } else {
      buffer.discard();
    }
  }

  @Override
  protected byte[] toBytes(CodecBuffer raw) {
    return raw.getArray();
  }
}
