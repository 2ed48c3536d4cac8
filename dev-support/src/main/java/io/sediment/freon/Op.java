package io.sediment.freon;

import java.util.List;

/**
 * One operation to run: its kind and the key name it works on (for listings, the name the page
 * starts after; empty for the first page), and for a {@link OpType#DELETE_BATCH} every name it
 * deletes ({@code name} is then the first; empty for other kinds).
 */
public record Op(OpType type, String name, List<String> batch) {

  public Op {
    batch = List.copyOf(batch);
  }

  /** An operation on one name. */
  public Op(OpType type, String name) {
    this(type, name, List.of());
  }

  /** A {@link OpType#DELETE_BATCH} of {@code names} (at least one). */
  static Op deleteBatch(List<String> names) {
    return new Op(OpType.DELETE_BATCH, names.get(0), names);
  }
}
