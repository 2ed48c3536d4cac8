package io.sediment.om.requests;

import io.sediment.proto.om.GetReplicationStatusResponse;

/**
 * What a server needs of the replicated group its store belongs to: where writes go, what reads
 * must pass, and how this replica stands. A single-node server has none.
 *
 * <p>Implementations are thread-safe.
 */
public interface Replication {

  /** The replicated write path. */
  WritePath writes();

  /** What every read passes first. */
  ReadGate reads();

  /** This replica's role and progress now. */
  GetReplicationStatusResponse status();
}
