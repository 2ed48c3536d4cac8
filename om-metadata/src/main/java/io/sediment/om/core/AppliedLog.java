package io.sediment.om.core;

import io.sediment.db.Table;
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
   * decision, not this replica's clock), and its batch records {@code position} as applied (also
   * when the write changes nothing else). A write that rejects (throws) changes nothing and
   * records nothing.
   */
  public <T> T apply(LogPosition position, long timeMillis, Supplier<T> write) {
    return ctx.applying(position, timeMillis, write);
  }

  /** The position the last applying write recorded, or empty for a store that never applied one. */
  public Optional<LogPosition> lastApplied() {
    byte[] v = meta().get(OmDBDefinition.META_LAST_APPLIED);
    return v == null ? Optional.empty() : Optional.of(LogPosition.decode(v));
  }

  /**
   * Records {@code position} as applied with nothing else changed, durably under the store's
   * sync policy: for entries that changed nothing, before a snapshot is taken at that position.
   * A position not after the recorded one is ignored.
   */
  public void recordApplied(LogPosition position) {
    Objects.requireNonNull(position, "position");
    ctx.write(txn -> {
      LogPosition last = lastApplied().orElse(null);
      if (last == null || position.index() > last.index()) {
        meta().putWithBatch(txn.batch(), OmDBDefinition.META_LAST_APPLIED, position.encode());
      }
      return null;
    });
  }

  /**
   * Replaces the continuation-token secret with the group's (at least 16 bytes): afterwards
   * tokens issued by any replica that adopted it verify here. Tokens this store signed before stop
   * verifying.
   */
  public void adoptTokenSecret(byte[] secret) {
    if (secret.length < 16) {
      throw OmException.invalid("Token secret too short: " + secret.length + " bytes");
    }
    byte[] copy = secret.clone();
    ctx.write(txn -> {
      meta().putWithBatch(txn.batch(), OmDBDefinition.META_TOKEN_SECRET, copy);
      meta().putWithBatch(txn.batch(), OmDBDefinition.META_TOKEN_SECRET_ADOPTED, new byte[] {1});
      return null;
    });
    ctx.useTokenSecret(copy);
  }

  /** Whether this store's token secret is one it adopted (else it made its own at creation). */
  public boolean tokenSecretAdopted() {
    return meta().get(OmDBDefinition.META_TOKEN_SECRET_ADOPTED) != null;
  }

  private Table<String, byte[]> meta() {
    return ctx.table(OmDBDefinition.META_TABLE);
  }
}
