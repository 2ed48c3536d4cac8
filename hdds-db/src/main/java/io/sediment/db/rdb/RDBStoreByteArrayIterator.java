package io.sediment.db.rdb;

import io.sediment.db.IteratorType;
import io.sediment.db.managed.ManagedRocksIterator;
import java.util.Arrays;

/**
 * The {@code byte[]} iterator: every key and value is a fresh array the caller may keep.
 * Contract in {@link RDBStoreAbstractIterator}.
 *
 * <p>An entry that fits the iterator's scratch array is copied into it by rocksdbjni and then
 * into an array of its size in Java, which costs less than the array rocksdbjni would create
 * through JNI ({@code RowReadBenchmark}); a larger one is read straight into an array of its
 * size.
 */
public final class RDBStoreByteArrayIterator extends RDBStoreAbstractIterator<byte[]> {

  /** Holds keys and values of up to this many bytes on their way to an array of their size. */
  private static final int SCRATCH = 1024;

  private byte[] scratch;

  public RDBStoreByteArrayIterator(ManagedRocksIterator nativeIterator, RDBTable table,
      IteratorType type) {
    super(nativeIterator, table, type);
  }

  @Override
  protected byte[] readKey() {
    byte[] into = scratch();
    int size = nativeIterator().key(into);
    return size <= into.length ? Arrays.copyOf(into, size) : whole(size, true);
  }

  @Override
  protected byte[] readValue() {
    byte[] into = scratch();
    int size = nativeIterator().value(into);
    return size <= into.length ? Arrays.copyOf(into, size) : whole(size, false);
  }

  private byte[] scratch() {
    byte[] into = scratch;
    if (into == null) {
      into = new byte[SCRATCH];
      scratch = into;
    }
    return into;
  }

  /** The current key or value, of {@code size} bytes, read straight into an array of its size. */
  private byte[] whole(int size, boolean key) {
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
