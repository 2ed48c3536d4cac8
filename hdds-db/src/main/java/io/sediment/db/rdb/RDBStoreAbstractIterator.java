package io.sediment.db.rdb;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import io.sediment.db.managed.ManagedRocksIterator;
import io.sediment.db.tombstone.TombstoneTracker;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The iterator contract of {@link TableIterator} over a native iterator, written once for both
 * raw representations ({@code byte[]} and {@link io.sediment.db.codec.CodecBuffer}); subclasses
 * supply only how a key or value is read, how a seek target is passed, and how a key is deleted.
 *
 * <p>State machine (see docs/ARCHITECTURE.md):
 * <pre>
 *   UNPOSITIONED --seek/seekAfter/seekToFirst/seekToLast--> POSITIONED
 *   UNPOSITIONED --hasNext/next/removeFromDB----> native seekToFirst, then as POSITIONED
 *   POSITIONED   --next--> CONSUMED   (native stays on the returned entry)
 *   CONSUMED     --hasNext/next--> native next(), POSITIONED
 *   any          --close--> CLOSED    (every later call but close throws)
 * </pre>
 * Bounds are native ({@code iterate_lower_bound}/{@code iterate_upper_bound}, set when the native
 * iterator was created), so {@code hasNext()} asks only {@code isValid()} and never reads a key.
 *
 * <p>When the native iterator counts skips (one iterator in the table's sampling rate), every
 * positioning or advance that skipped at least the tracker's minimum of tombstones is reported to
 * the table's {@link TombstoneTracker} with the keys it walked between. Not thread-safe.
 *
 * @param <RAW> the raw key and value representation
 */
public abstract class RDBStoreAbstractIterator<RAW>
    implements TableIterator<RAW, KeyValue<RAW, RAW>> {

  /** Keys and values of up to this many bytes are read through {@link #scratch()}. */
  protected static final int SCRATCH = 1024;

  private final ManagedRocksIterator nativeIterator;
  private final RDBTable table;
  private final IteratorType type;

  private boolean positioned;
  private boolean consumed;
  /**
   * Set when {@link #hasNext()} or {@link #seek} just found the native iterator on an entry,
   * cleared by every move and by {@link #next()}: lets {@code next()} skip asking the native
   * iterator again. {@code next()} still throws once the iterator or the store is closed.
   */
  private boolean checkedOnEntry;
  private KeyValue<RAW, RAW> pending;
  private RAW currentKey;
  private boolean closed;
  private long entriesReturned;
  /** Whether {@link #closeResources} ran: by the owner's close or by the store's. */
  private final AtomicBoolean resourcesReleased = new AtomicBoolean();
  /** Made on first use ({@link #scratch()}). */
  private byte[] scratch;

  /**
   * @param nativeIterator created but not positioned; this iterator owns and closes it
   * @param table where {@link #removeFromDB()} deletes; {@code null} makes it unsupported
   */
  protected RDBStoreAbstractIterator(ManagedRocksIterator nativeIterator, RDBTable table,
      IteratorType type) {
    this.nativeIterator = Objects.requireNonNull(nativeIterator, "nativeIterator");
    this.table = table;
    this.type = Objects.requireNonNull(type, "type");
  }

  /** Reads the key at the native position, which is valid. */
  protected abstract RAW readKey();

  /** Reads the value at the native position, which is valid. */
  protected abstract RAW readValue();

  /**
   * Positions the native iterator with one native seek at the first key at or after
   * {@code target} or, when {@code strictlyAfter}, strictly after it: at or after {@code target}
   * followed by one {@code 0x00} byte, the smallest key greater than {@code target} in RocksDB's
   * bytewise order.
   */
  protected abstract void seekNative(RAW target, boolean strictlyAfter);

  /** Deletes {@code key} from {@code table}. */
  protected abstract void delete(RDBTable table, RAW key);

  /** A copy of {@code raw} as an array. */
  protected abstract byte[] toBytes(RAW raw);

  /**
   * Frees what the subclass owns besides the native iterator; called once, after the native
   * iterator is closed, by whichever comes first: the owner's {@link #close()} ({@code byOwner},
   * in the owner's thread), or the store's close of an iterator its owner left open (in the
   * closing thread, possibly while the owner still reads an entry: memory must then not go back
   * to a pool, where another thread could reuse it under the owner). Subclasses that override it
   * call {@link #releaseResourcesOnStoreClose()} at the end of their constructor.
   */
  protected void closeResources(boolean byOwner) {
  }

  /**
   * Makes the store's close release this iterator's resources ({@link #closeResources}) if it has
   * to close the iterator for its owner; at once if the store is already closed.
   */
  protected final void releaseResourcesOnStoreClose() {
    nativeIterator.onAbandoned(() -> releaseResources(false));
  }

  private void releaseResources(boolean byOwner) {
    if (resourcesReleased.compareAndSet(false, true)) {
      closeResources(byOwner);
    }
  }

  protected final ManagedRocksIterator nativeIterator() {
    return nativeIterator;
  }

  /**
   * Copies the current key ({@code key}) or value into {@link #scratch()} from index 0 with
   * rocksdbjni's array read, and returns its full size: at most {@link #SCRATCH} means it is all
   * there; a larger one was cut, and the caller reads it another way. An entry goes this way
   * because the array read and a Java copy out of it cost less than rocksdbjni creating an array
   * through JNI, or writing into a direct buffer whose address JNI looks up on every call
   * ({@code RowReadBenchmark}). Requires a valid native position.
   */
  protected final int readIntoScratch(boolean key) {
    byte[] into = scratch();
    return key ? nativeIterator.key(into) : nativeIterator.value(into);
  }

  /** The array {@link #readIntoScratch} fills, of {@link #SCRATCH} bytes, made on first use. */
  protected final byte[] scratch() {
    byte[] into = scratch;
    if (into == null) {
      into = new byte[SCRATCH];
      scratch = into;
    }
    return into;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("Iterator is closed");
    }
  }

  private void positioned() {
    positioned = true;
    consumed = false;
    checkedOnEntry = false;
    pending = null;
    currentKey = null;
  }

  /**
   * Reports the last native move to the tracker if it skipped enough tombstones. {@code from} is
   * where the walk started ({@code null}: the lower bound); reverse walks end at the upper bound.
   * Reads the landing key with a fresh array so the reused buffers are not disturbed.
   */
  private void accountMove(RAW from, boolean reverse) {
    if (!nativeIterator.isCounting() || table == null) {
      return;
    }
    TombstoneTracker tracker = table.tombstoneTracker();
    if (tracker == null
        || nativeIterator.lastTombstonesSkipped() < tracker.policy().minTombstonesPerPass()) {
      return;
    }
    byte[] landing = nativeIterator.isValid() ? nativeIterator.key() : null;
    if (reverse) {
      tracker.onSkipped(landing != null ? landing : nativeIterator.lowerBound(),
          nativeIterator.upperBound(), nativeIterator.lastTombstonesSkipped());
    } else {
      tracker.onSkipped(from != null ? toBytes(from) : nativeIterator.lowerBound(),
          landing != null ? landing : nativeIterator.upperBound(),
          nativeIterator.lastTombstonesSkipped());
    }
  }

  private void seekToFirstNative() {
    nativeIterator.seekToFirst();
    accountMove(null, false);
  }

  private KeyValue<RAW, RAW> readEntry() {
    if (!type.readKey()) {
      return KeyValue.ofValue(readValue());
    }
    RAW key = readKey();
    return KeyValue.of(key, type.readValue() ? readValue() : null);
  }

  private boolean isValid() {
    if (nativeIterator.isValid()) {
      return true;
    }
    nativeIterator.checkStatus();
    return false;
  }

  @Override
  public final boolean hasNext() {
    checkOpen();
    nativeIterator.begin();
    try {
      return advanceIfConsumed();
    } finally {
      nativeIterator.end();
    }
  }

  /** {@link #hasNext()} inside an open bracket. */
  private boolean advanceIfConsumed() {
    if (!positioned) {
      seekToFirstNative();
      positioned();
    } else if (consumed) {
      if (currentKey == null && nativeIterator.isCounting()) {
        // A value-only entry: the walk's start is read only for a sampled iterator's report.
        currentKey = readKey();
      }
      nativeIterator.next();
      accountMove(currentKey, false);
      consumed = false;
      pending = null;
    }
    checkedOnEntry = isValid();
    return checkedOnEntry;
  }

  /**
   * Returns the entry at the current position and stays on it until the next call needs the
   * following one.
   *
   * @throws NoSuchElementException at the end of the bounds
   */
  @Override
  public final KeyValue<RAW, RAW> next() {
    checkOpen();
    KeyValue<RAW, RAW> entry;
    if (checkedOnEntry && !consumed && pending != null) {
      // The entry a seek landed on, read already: no native call, only the closed checks.
      nativeIterator.checkUsable();
      entry = pending;
    } else {
      nativeIterator.begin();
      try {
        if (!(checkedOnEntry && !consumed) && !advanceIfConsumed()) {
          throw new NoSuchElementException("No entry left within the iterator's bounds");
        }
        entry = pending != null ? pending : readEntry();
      } finally {
        nativeIterator.end();
      }
    }
    pending = null;
    consumed = true;
    checkedOnEntry = false;
    currentKey = entry.getKey();
    entriesReturned++;
    return entry;
  }

  @Override
  public final Hold hold() {
    checkOpen();
    nativeIterator.begin();
    return new Hold() {
      private boolean ended;

      @Override
      public void close() {
        if (!ended) {
          ended = true;
          nativeIterator.end();
        }
      }
    };
  }

  @Override
  public final void seekToFirst() {
    checkOpen();
    nativeIterator.begin();
    try {
      seekToFirstNative();
    } finally {
      nativeIterator.end();
    }
    positioned();
  }

  @Override
  public final void seekToLast() {
    checkOpen();
    nativeIterator.begin();
    try {
      nativeIterator.seekToLast();
      accountMove(null, true);
    } finally {
      nativeIterator.end();
    }
    positioned();
  }

  @Override
  public final KeyValue<RAW, RAW> seek(RAW key) {
    return position(key, false);
  }

  @Override
  public final KeyValue<RAW, RAW> seekAfter(RAW key) {
    return position(key, true);
  }

  /** {@link #seek} or {@link #seekAfter}: one native seek, the landing entry read once. */
  private KeyValue<RAW, RAW> position(RAW key, boolean strictlyAfter) {
    checkOpen();
    Objects.requireNonNull(key, "key");
    nativeIterator.begin();
    try {
      seekNative(key, strictlyAfter);
      accountMove(key, false);
      positioned();
      if (!isValid()) {
        return null;
      }
      pending = readEntry();
    } finally {
      nativeIterator.end();
    }
    currentKey = pending.getKey();
    checkedOnEntry = true;
    return pending;
  }

  @Override
  public final RAW currentKey() {
    checkOpen();
    if (!(consumed || (checkedOnEntry && pending != null))) {
      throw new IllegalStateException("The iterator is on no entry it returned or landed on");
    }
    nativeIterator.begin();
    try {
      return readKey();
    } finally {
      nativeIterator.end();
    }
  }

  @Override
  public final void removeFromDB() {
    checkOpen();
    nativeIterator.checkUsable(); // after the store's close its buffers are gone: say closed
    if (table == null) {
      throw new UnsupportedOperationException("This iterator is not attached to a table");
    }
    if (!type.readKey()) {
      throw new UnsupportedOperationException("A value-only iterator cannot remove entries");
    }
    if (!positioned) {
      seekToFirstNative();
      positioned();
    }
    RAW key = currentKey;
    if (key == null) {
      if (consumed || !isValid()) {
        throw new IllegalStateException("No current entry to remove");
      }
      key = readKey();
      currentKey = key;
    }
    delete(table, key);
  }

  @Override
  public final void close() {
    if (closed) {
      return;
    }
    closed = true;
    pending = null;
    currentKey = null;
    if (nativeIterator.isCounting() && table != null && table.tombstoneTracker() != null) {
      table.tombstoneTracker().onScanClosed(entriesReturned,
          nativeIterator.totalTombstonesSkipped(), nativeIterator.totalMoveNanos());
    }
    try {
      nativeIterator.close();
    } finally {
      releaseResources(true);
    }
  }
}
