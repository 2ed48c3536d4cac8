package io.sediment.db.rdb;

import io.sediment.db.IteratorType;
import io.sediment.db.managed.ManagedRocksIterator;
import java.util.Arrays;
import java.util.function.ToIntBiFunction;

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
    return read(ManagedRocksIterator::key);
  }

  @Override
  protected byte[] readValue() {
    return read(ManagedRocksIterator::value);
  }

  /** The current key or value ({@code part} copies it into an array and returns its size). */
  private byte[] read(ToIntBiFunction<ManagedRocksIterator, byte[]> part) {
    if (scratch == null) {
      scratch = new byte[SCRATCH];
    }
    int size = part.applyAsInt(nativeIterator(), scratch);
    if (size <= scratch.length) {
      return Arrays.copyOf(scratch, size);
    }
    byte[] whole = new byte[size];
    part.applyAsInt(nativeIterator(), whole);
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
