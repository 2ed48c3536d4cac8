package io.sediment.om.listing;

import java.util.Objects;

/**
 * Where a listing resumes: strictly after {@code lastKey} in the listing's order and, when
 * {@code lastIsPrefix}, after every key that starts with it (a common prefix returned last). A
 * listing's keys are names relative to its base (a bucket's keys without {@code /volume/bucket/},
 * a path below the listed directory, ...); the listing decides which.
 *
 * @param lastKey the last item returned; never {@code null}
 * @param lastIsPrefix whether {@code lastKey} is a common prefix rather than an item
 */
public record Cursor(String lastKey, boolean lastIsPrefix) {

  public Cursor {
    Objects.requireNonNull(lastKey, "lastKey");
  }

  /** The cursor of a start-after name (exclusive); {@code null} for {@code null} or empty. */
  public static Cursor startAfter(String name) {
    return name == null || name.isEmpty() ? null : new Cursor(name, false);
  }
}
