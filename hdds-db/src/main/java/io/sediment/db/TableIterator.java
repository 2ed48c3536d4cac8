package io.sediment.db;

import java.util.Iterator;

/**
 * An iterator over the entries of one table, in key order, within the table's or the
 * requested prefix's or range's bounds. It sees the table as it was when the iterator was
 * created.
 *
 * <p>Positioning is lazy: creating an iterator does not position it. If the first call is
 * {@link #seek}, {@link #seekAfter}, {@link #seekToFirst()} or {@link #seekToLast()}, that call is
 * the only
 * positioning; if it is {@link #hasNext()}, {@link #next()} or {@link #removeFromDB()}, the
 * iterator first positions at the start of its bounds. Advancing is lazy too: after {@code next()}
 * the iterator stays on the entry it returned and moves on only when asked for the following one,
 * so reading N entries never walks past the N-th.
 *
 * <p>Not thread-safe. Must be closed; {@link #close()} is idempotent. Any other call after its own
 * close throws {@link IllegalStateException}; any call after the store closed throws
 * {@link StoreClosedException}.
 *
 * @param <K> the key type
 * @param <T> the element type, usually {@link KeyValue}
 */
public interface TableIterator<K, T> extends Iterator<T>, AutoCloseable {

  /** Positions at the first entry within the bounds; {@link #next()} returns it. */
  void seekToFirst();

  /** Positions at the last entry within the bounds; {@link #next()} returns it. */
  void seekToLast();

  /**
   * Positions at the first entry whose key is at or after {@code key} within the bounds (a key
   * below the lower bound positions at the lower bound) and returns that entry without consuming
   * it: the following {@link #next()} returns it again.
   *
   * @return the entry positioned at, or {@code null} if there is none (past the end or the upper
   *     bound)
   */
  T seek(K key);

  /**
   * Positions at the first entry whose key is strictly after {@code key} within the bounds, as
   * {@link #seek} does for "at or after": the entry is returned without being consumed, a key
   * below the lower bound positions at the lower bound, and past the end or the upper bound the
   * result is {@code null}. {@code key} need not exist. One positioning, like {@code seek}: the
   * iterator never lands on {@code key} and then steps over it.
   *
   * @return the entry positioned at, or {@code null} if there is none
   */
  T seekAfter(K key);

  /**
   * Reads the key of the entry this iterator is on: the one {@link #next()} returned last, until
   * a later call moves past it ({@link #hasNext()} after it does), or the one a seek landed on.
   * What a value-only iterator ({@link IteratorType#VALUE_ONLY}) offers instead of a key per
   * entry; any iterator answers it. A key a buffer-reusing iterator returns is valid as the keys
   * its {@code next()} returns are.
   *
   * @throws IllegalStateException if the iterator is on no entry it returned or landed on (fresh,
   *     moved on, after a seek that found nothing, after {@code seekToFirst}/{@code seekToLast}
   *     until {@code next()} returns the entry) or is closed
   */
  K currentKey();

  /**
   * Deletes from the table the current entry: the one last returned by {@link #next()} or
   * positioned at by a seek. The iterator's own view is unchanged.
   *
   * @throws IllegalStateException if there is no current entry
   * @throws UnsupportedOperationException if the iterator is not attached to a table or is
   *     value-only
   */
  void removeFromDB();

  /**
   * Holds the store open for this iterator until the returned hold closes: the calls made on this
   * iterator meanwhile, on this thread, share one guarded operation on the store instead of
   * entering it once each, which is what a caller reading many entries in a row saves. The
   * store's close waits for every open hold (up to its close timeout), so hold only across work
   * that does not block, and close the hold in a {@code finally} (try-with-resources). Holds
   * nest; closing a hold twice has no further effect. Use-after-close checks are kept: a call
   * after this iterator's close still throws.
   *
   * @throws StoreClosedException if the store is closed
   * @throws IllegalStateException if this iterator is closed
   */
  Hold hold();

  @Override
  void close();

  /** What {@link #hold()} returns: closing it ends the hold. */
  interface Hold extends AutoCloseable {
    @Override
    void close();
  }
}
