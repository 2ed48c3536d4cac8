package io.sediment.db.rdb;

import io.sediment.db.IteratorType;
import io.sediment.db.managed.ManagedRocksIterator;
import java.util.Arrays;

/**
 * The {@code byte[]} iterator: every key and value is a fresh array the caller may keep.
 * Contract in {@link RDBStoreAbstractIterator}.
 */
public final class RDBStoreByteArrayIterator extends RDBStoreAbstractIterator<byte[]> {

  public RDBStoreByteArrayIterator(ManagedRocksIterator nativeIterator, RDBTable table,
      IteratorType type) {
    super(nativeIterator, table, type);
  }

  @Override
  protected byte[] readKey() {
    return nativeIterator().key();
  }

  @Override
  protected byte[] readValue() {
    return nativeIterator().value();
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
