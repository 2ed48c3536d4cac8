package io.sediment.freon;

import java.util.Locale;
import java.util.SplittableRandom;

/** What a run issues, as a draw of one {@link OpType} per operation. */
public enum Workload {
  /** Only {@link OpType#CREATE}. */
  CREATE,
  /** Only {@link OpType#LOOKUP}. */
  LOOKUP,
  /** {@link OpType#LIST}, {@link OpType#LIST_DELIMITER} and {@link OpType#LIST_STATUS}, a third each. */
  LIST,
  /** Only {@link OpType#DELETE}; the run ends early when no key is left to delete. */
  DELETE,
  /** Only {@link OpType#DELETE_BATCH}; the run ends early when no key is left to delete. */
  DELETE_BATCH,
  /**
   * 60 % {@link OpType#LOOKUP}, 20 % {@link OpType#CREATE}, 10 % {@link OpType#LIST} and 10 %
   * {@link OpType#DELETE} (deleting keys the run created first, then prefilled ones).
   */
  MIXED;

  /** Draws the next operation's kind from {@code random}. */
  public OpType draw(SplittableRandom random) {
    switch (this) {
      case CREATE:
        return OpType.CREATE;
      case LOOKUP:
        return OpType.LOOKUP;
      case DELETE:
        return OpType.DELETE;
      case DELETE_BATCH:
        return OpType.DELETE_BATCH;
      case LIST: {
        int r = random.nextInt(3);
        return r == 0 ? OpType.LIST : r == 1 ? OpType.LIST_DELIMITER : OpType.LIST_STATUS;
      }
      case MIXED: {
        int r = random.nextInt(100);
        return r < 60 ? OpType.LOOKUP : r < 80 ? OpType.CREATE : r < 90 ? OpType.LIST
            : OpType.DELETE;
      }
      default:
        throw new AssertionError(this);
    }
  }

  /**
   * The workload named {@code name} as the command line spells it ({@code delete-batch}).
   *
   * @throws IllegalArgumentException for no such workload
   */
  public static Workload named(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
  }

  /** The name as the command line spells it. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Whether every operation deletes prefilled keys, so that a warm-up must leave most of them. */
  public boolean consumesKeys() {
    return this == DELETE || this == DELETE_BATCH;
  }

  /** Whether the run needs the FSO bucket's files (ListStatus). */
  public boolean needsFso() {
    return this == LIST;
  }
}
