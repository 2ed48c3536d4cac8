package io.sediment.om.listing;

import java.util.function.Supplier;

/**
 * The items of one listing, read in listing order from a position fixed when it was opened (see
 * {@link PageSource#open}). A scan reads lazily: {@link #next()} reads only what the next item
 * needs, {@link #hasMore()} at most what the item after the last one returned needs. Owns the
 * iterators it opens; {@link #close()} frees them and is idempotent. Not thread-safe.
 *
 * @param <R> the item type
 */
public interface Scan<R> extends AutoCloseable {

  /** The next item, or {@code null} at the end. */
  R next();

  /** Whether {@link #next()} would return an item; does not consume it. */
  boolean hasMore();

  /**
   * Where a listing continued after the item {@link #next()} returned last resumes, or
   * {@code null} if this scan's positions have no {@link Cursor} form (then no continuation token
   * can be issued for it). Called only after {@code next()} returned an item, and before
   * {@link #hasMore()}: a scan may read the cursor from where that item left its iterator.
   */
  Cursor resumeCursor();

  /**
   * Runs {@code reads} (calls of this scan's {@link #next()}, {@link #hasMore()} and
   * {@link #resumeCursor()}, on this thread, without blocking) and returns what it returns. A scan over one table iterator runs
   * them as one guarded operation on the store ({@link io.sediment.db.TableIterator#hold()});
   * by default it only runs them.
   */
  default <T> T reading(Supplier<T> reads) {
    return reads.get();
  }

  @Override
  void close();
}
