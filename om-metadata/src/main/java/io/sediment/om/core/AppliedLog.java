package io.sediment.om.core;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The store's side of a replicated state machine: applying a log entry's write so that the change
 * and the entry's position are durable together, the position last applied, and the token secret
 * a replica adopts from its group.
 *
 * <p>Contract for a state machine: apply entries one at a time, in log order, each through
 * {@link #apply}; after a restart, replay from the entry after {@link #lastApplied()}. Replay is
 * idempotent because an entry whose write committed is never applied again, and an entry that was
 * rejected (or changed nothing) is rejected (or changes nothing) again, given the same state and
 * the same decided time.
 *
 * <p>Thread-safe; {@link #apply} may not be nested on one thread.
 */
public final class AppliedLog {

  private final OmContext ctx;

  public AppliedLog(OmContext ctx) {
    this.ctx = Objects.requireNonNull(ctx, "ctx");
  }

  /**
   * Runs {@code write} (one call of the store's write API) as the application of the entry at
   * {@code position}: every row it writes carries {@code timeMillis} as its time (the leader's
   * decision, not this replica's clock), and its batch records {@code position} as applied. A
   * write that rejects (throws) changes nothing and records nothing; a write that changes nothing
   * records nothing either.
   */
  public <T> T apply(LogPosition position, long timeMillis, Supplier<T> write) {
    return ctx.applying(position, timeMillis, write);
  }

  /** The position the last applying write recorded, or empty for a store that never applied one. */
  public Optional<LogPosition> lastApplied() {
    return Optional.ofNullable(ctx.lastApplied());
  }

  /**
   * Records {@code position} as applied with nothing else changed, durably under the store's
   * sync policy: for entries that changed nothing, before a snapshot is taken at that position.
   * A position not after the recorded one is ignored.
   */
  public void recordApplied(LogPosition position) {
    ctx.recordApplied(Objects.requireNonNull(position, "position"));
  }

  /**
   * Replaces the continuation-token secret with the group's (at least 16 bytes): afterwards
   * tokens issued by any replica that adopted it verify here. Tokens this store signed before stop
   * verifying.
   */
  public void adoptTokenSecret(byte[] secret) {
    ctx.adoptTokenSecret(secret);
  }

  /** Whether this store's token secret is one it adopted (else it made its own at creation). */
  public boolean tokenSecretAdopted() {
    return ctx.tokenSecretAdopted();
  }
}
