package io.sediment.om.ha;

import java.util.Map;

/**
 * One replica's role and progress at one moment.
 *
 * @param id the replica's id
 * @param role LEADER, FOLLOWER, CANDIDATE or LISTENER (Ratis' role), or {@link #STOPPED}
 * @param term the replica's current term
 * @param leaderId the leader it knows, or null during an election
 * @param leaderAddress that leader's OmService address, or null if unknown
 * @param commitIndex the last log index it knows to be committed
 * @param appliedIndex the last log index its store applied
 * @param followerMatchIndex on the leader: each follower's commit index as the leader last
 *     heard it (its replication progress); empty elsewhere
 */
public record ReplicaStatus(String id, String role, long term, String leaderId,
    String leaderAddress, long commitIndex, long appliedIndex,
    Map<String, Long> followerMatchIndex) {

  /**
   * The role of a replica whose Raft server stopped (after a failure of its own storage while
   * applying an entry): it neither votes nor applies until it is restarted.
   */
  public static final String STOPPED = "STOPPED";

  public ReplicaStatus {
    followerMatchIndex = Map.copyOf(followerMatchIndex);
  }

  /** How many committed entries this replica has not applied yet. */
  public long applyLag() {
    return Math.max(0, commitIndex - appliedIndex);
  }
}
