package io.sediment.om.listing;

/**
 * What a listing supplies to the {@link Pager}: how to open its scan at a position. The scan
 * turns the rows it reads into items (skipping rows that list nothing, rolling rows up into
 * common prefixes) and knows where to resume after each item ({@link Scan#resumeCursor()}).
 *
 * @param <R> the item type
 */
@FunctionalInterface
public interface PageSource<R> {

  /**
   * Called once with the page's cursor after it is resolved and before anything is read, also
   * for a page size of 0: where a listing refuses a cursor that does not belong to it or a
   * listed object that does not exist. Reads nothing by default.
   *
   * @param after the resolved cursor, {@code null} for the start
   */
  default void begin(Cursor after) {
  }

  /**
   * Opens a scan positioned strictly after {@code after} (and after everything under it when it
   * is a prefix), or at the start for {@code null}. A cursor whose item no longer exists resumes
   * at the next item after where it would be. Positions once: no walk from the start.
   */
  Scan<R> open(Cursor after);
}
