package io.sediment.om.ha;

import io.sediment.om.tls.TlsMaterial;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How one replica joins its group.
 *
 * @param selfId this replica's id, one of {@code peers}
 * @param peers every replica of the group (this one included)
 * @param storageDir where Ratis keeps this replica's log and metadata (not the store's directory)
 * @param groupName names the group: replicas of one group must agree on it (default
 *     {@value #DEFAULT_GROUP_NAME}); it is turned into Ratis' group id
 * @param electionTimeoutMin the least time a follower waits without hearing from a leader before
 *     it starts an election; the most is twice this. Lower fails over faster and risks needless
 *     elections on a loaded machine (default {@link #DEFAULT_ELECTION_TIMEOUT})
 * @param snapshotEvery how many applied entries trigger a snapshot (the store's applied position
 *     flushed), after which the log behind it may be purged (default
 *     {@value #DEFAULT_SNAPSHOT_EVERY}); the log's segments are sized to about this many entries,
 *     since only whole segments are purged. A replica that was down while the log it missed was
 *     purged catches up by installing a copy of the leader's store
 * @param requestTimeout how long a write or a read barrier waits for the group before it fails with
 *     UNAVAILABLE (default {@link #DEFAULT_REQUEST_TIMEOUT})
 * @param followerReads whether a follower serves reads from what it has applied (stale by at most
 *     its lag behind the leader) instead of refusing them with the leader's address
 * @param tls null for plaintext replication; else the replica's certificate and the CA its peers'
 *     certificates must be signed by: the Raft traffic (in both directions) and the copy of a
 *     store a replica installs go over mutual TLS with them
 */
public record HaOptions(String selfId, HaPeers peers, Path storageDir, String groupName,
    Duration electionTimeoutMin, long snapshotEvery, Duration requestTimeout,
    boolean followerReads, TlsMaterial tls) {

  public static final String DEFAULT_GROUP_NAME = "sediment";
  public static final Duration DEFAULT_ELECTION_TIMEOUT = Duration.ofMillis(1000);
  public static final long DEFAULT_SNAPSHOT_EVERY = 10_000;
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

  public HaOptions {
    Objects.requireNonNull(selfId, "selfId");
    Objects.requireNonNull(peers, "peers");
    Objects.requireNonNull(storageDir, "storageDir");
    Objects.requireNonNull(groupName, "groupName");
    peers.require(selfId);
    if (electionTimeoutMin.isNegative() || electionTimeoutMin.toMillis() < 50) {
      throw new IllegalArgumentException("Election timeout must be at least 50 ms: "
          + electionTimeoutMin);
    }
    if (snapshotEvery < 1) {
      throw new IllegalArgumentException("Snapshot interval must be at least 1 entry: "
          + snapshotEvery);
    }
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException("Request timeout must be positive: " + requestTimeout);
    }
    if (tls != null && (!tls.hasIdentity() || !tls.hasTrustedCa())) {
      throw new IllegalArgumentException("Replication over TLS needs the replica's certificate "
          + "and key and the CA its peers are checked against");
    }
  }

  /** Plaintext replication. */
  public HaOptions(String selfId, HaPeers peers, Path storageDir, String groupName,
      Duration electionTimeoutMin, long snapshotEvery, Duration requestTimeout,
      boolean followerReads) {
    this(selfId, peers, storageDir, groupName, electionTimeoutMin, snapshotEvery, requestTimeout,
        followerReads, null);
  }

  /** Defaults for everything but the replica's id, its group and where its log lives. */
  public static HaOptions of(String selfId, HaPeers peers, Path storageDir) {
    return new HaOptions(selfId, peers, storageDir, DEFAULT_GROUP_NAME, DEFAULT_ELECTION_TIMEOUT,
        DEFAULT_SNAPSHOT_EVERY, DEFAULT_REQUEST_TIMEOUT, false);
  }

  public HaOptions withElectionTimeout(Duration min) {
    return new HaOptions(selfId, peers, storageDir, groupName, min, snapshotEvery, requestTimeout,
        followerReads, tls);
  }

  public HaOptions withSnapshotEvery(long entries) {
    return new HaOptions(selfId, peers, storageDir, groupName, electionTimeoutMin, entries,
        requestTimeout, followerReads, tls);
  }

  public HaOptions withRequestTimeout(Duration timeout) {
    return new HaOptions(selfId, peers, storageDir, groupName, electionTimeoutMin, snapshotEvery,
        timeout, followerReads, tls);
  }

  public HaOptions withFollowerReads(boolean allowed) {
    return new HaOptions(selfId, peers, storageDir, groupName, electionTimeoutMin, snapshotEvery,
        requestTimeout, allowed, tls);
  }

  public HaOptions withGroupName(String name) {
    return new HaOptions(selfId, peers, storageDir, name, electionTimeoutMin, snapshotEvery,
        requestTimeout, followerReads, tls);
  }

  /** Replicate over mutual TLS with {@code material} (null: plaintext); see {@link #tls()}. */
  public HaOptions withTls(TlsMaterial material) {
    return new HaOptions(selfId, peers, storageDir, groupName, electionTimeoutMin, snapshotEvery,
        requestTimeout, followerReads, material);
  }
}
