package io.sediment.om.audit;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which successful reads the audit log records: {@code all}, {@code none}, or {@code sample:N}
 * (the first of every N, counted over all read RPCs together). Writes, administration calls,
 * failures and denials are recorded whatever this says.
 *
 * <p>Thread-safe.
 */
public final class AuditReads {

  private final long every;
  private final AtomicLong seen = new AtomicLong();

  private AuditReads(long every) {
    this.every = every;
  }

  /** Every successful read is recorded. */
  public static AuditReads all() {
    return new AuditReads(1);
  }

  /** No successful read is recorded. */
  public static AuditReads none() {
    return new AuditReads(0);
  }

  /**
   * The first successful read of every {@code n}.
   *
   * @throws IllegalArgumentException if {@code n < 1}
   */
  public static AuditReads sample(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("A read sample needs N >= 1: " + n);
    }
    return new AuditReads(n);
  }

  /**
   * Parses {@code all}, {@code none} or {@code sample:N} (case-insensitive).
   *
   * @throws IllegalArgumentException naming the accepted forms, for anything else
   */
  public static AuditReads parse(String text) {
    String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    if (t.equals("all")) {
      return all();
    }
    if (t.equals("none")) {
      return none();
    }
    if (t.startsWith("sample:")) {
      try {
        return sample(Long.parseLong(t.substring("sample:".length())));
      } catch (IllegalArgumentException e) {
        // falls through to the message naming the accepted forms
      }
    }
    throw new IllegalArgumentException("Expected all, none or sample:N (N >= 1), not '" + text
        + "'");
  }

  /** Whether to record the successful read being served now (advances the sample). */
  boolean admit() {
    if (every <= 1) {
      return every == 1;
    }
    return seen.getAndIncrement() % every == 0;
  }

  /** {@code all}, {@code none} or {@code sample:N}, as {@link #parse} reads it. */
  @Override
  public String toString() {
    return every == 0 ? "none" : every == 1 ? "all" : "sample:" + every;
  }
}
