package io.sediment.om.requests;

/**
 * What a read must pass before it reads this replica's store. A single store needs nothing
 * ({@link #NONE}); a replica serving linearizable reads first confirms it is still the leader and
 * has applied every write committed before the read began (Raft's read index), and a follower
 * either refuses ({@link NotLeaderException}) or, where stale reads are allowed, reads what it has
 * applied.
 *
 * <p>Implementations are thread-safe.
 */
@FunctionalInterface
public interface ReadGate {

  /** Nothing to pass: a single store's reads see every acknowledged write. */
  ReadGate NONE = () -> { };

  /**
   * Returns once a read that starts now sees every write acknowledged before this call.
   *
   * @throws NotLeaderException if this replica may not serve the read
   */
  void beforeRead();
}
