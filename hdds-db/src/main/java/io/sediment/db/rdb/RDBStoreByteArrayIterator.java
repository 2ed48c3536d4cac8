package io.sediment.db.rdb;

import io.sediment.db.IteratorType;
import io.sediment.db.managed.ManagedRocksIterator;
import java.util.Arrays;

/**
 * The {@code byte[]} iterator: every key and value is a fresh array the caller may keep.
 * Contract in {@link RDBStoreAbstractIterator}.
 *
 * <p>An entry that fits the scratch array ({@link #readIntoScratch}) is copied out of it into an
 * array of its size; a larger one is read straight into an array of its size.
 */
public final class RDBStoreByteArrayIterator extends RDBStoreAbstractIterator<byte[]> {

  public RDBStoreByteArrayIterator(ManagedRocksIterator nativeIterator, RDBTable table,
      IteratorType type) {
    super(nativeIterator, table, type);
  }

  @Override
  protected byte[] readKey() {
    return read(true);
  }

  @Override
  protected byte[] readValue() {
    return read(false);
  }

  private byte[] read(boolean key) {
    int size = readIntoScratch(key);
    if (size <= SCRATCH) {
      return Arrays.copyOf(scratch(), size);
    }
    byte[] whole = new byte[size];
    if (key) {
      nativeIterator().key(whole);
    } else {
      nativeIterator().value(whole);
    }
    return whole;
  }

  @Override
  protected void seekNative(byte[] target, boolean strictlyAfter) {
    nativeIterator().seek(strictlyAfter ? Arrays.copyOf(target, target.length + 1) : target);
  }

  @Override
  protected void delete(RDBTable table, byte[] key) {
    table.delete(key);
  }

  @Override
  protected byte[] toBytes(byte[] raw) {
    return raw.clone();
  }
}
