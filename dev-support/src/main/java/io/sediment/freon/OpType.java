package io.sediment.freon;

/**
 * One kind of operation a workload issues, with the gRPC calls it makes (the echo floor makes as
 * many empty calls of the same sizes) and what its raw floor does.
 */
public enum OpType {
  /** OpenKey then CommitKey of a new name; raw: two synced batches (open row; commit). */
  CREATE(2),
  /** LookupKey of an existing key; raw: one get. */
  LOOKUP(1),
  /** A ListObjectsV2 page of 1,000 keys, no delimiter; raw: a 1,000-row bounded scan. */
  LIST(1),
  /** The same page with delimiter "/" (names hold none: the delimiter path, no prefixes). */
  LIST_DELIMITER(1),
  /** A ListStatus page of 1,000 files of an FSO bucket's root; raw: a 1,000-row scan. */
  LIST_STATUS(1),
  /** DeleteKey of an existing key; raw: one synced batch (delete the row, put the deleted row). */
  DELETE(1),
  /**
   * DeleteKeys of {@code --batch} existing keys of one bucket in one call; raw: one synced batch
   * holding every key's row delete and deleted row.
   */
  DELETE_BATCH(1);

  private final int calls;

  OpType(int calls) {
    this.calls = calls;
  }

  /** gRPC calls one operation makes (1, or 2 for CREATE). */
  public int calls() {
    return calls;
  }

  /** Lower-case name with dashes, as reports print it. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
