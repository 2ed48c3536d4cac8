package io.sediment.om.ha;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * The Ratis settings and parameters of one replica, from its {@link HaOptions}. Public so that a
 * benchmark can run a bare Ratis group configured exactly like the replicas. Stateless.
 */
public final class ReplicaProperties {

  private ReplicaProperties() {
  }

  /**
   * The parameters a replica's Raft server is built with: with {@link HaOptions#tls()}, mutual
   * TLS on its Raft port and on its calls to the other replicas (each side shows its certificate
   * and checks the other's against the CA); empty otherwise.
   */
  static Parameters parameters(HaOptions o) {
    Parameters p = new Parameters();
    if (o.tls() != null) {
      GrpcConfigKeys.TLS.setConf(p, new GrpcTlsConfig(o.tls().keyManager(),
          o.tls().trustManager(), true));
    }
    return p;
  }

  /** The properties a replica's Raft server is built with (a fresh object each call). */
  public static RaftProperties of(HaOptions o) {
    RaftProperties p = new RaftProperties();
    RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
    GrpcConfigKeys.Server.setPort(p, o.peers().require(o.selfId()).raftPort());
    RaftServerConfigKeys.setStorageDir(p, List.of(o.storageDir().toFile()));
    long min = o.electionTimeoutMin().toMillis();
    RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(min, TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(2 * min, TimeUnit.MILLISECONDS));
    // How long a replica being added may stay silent before the leader gives the change up.
    // Ratis' default (three election timeouts, under 2 s with short ones) fails additions on a
    // busy machine, where the leader's first contact with the new replica took 3 to 4 s.
    RaftServerConfigKeys.setStagingTimeout(p, TimeDuration.valueOf(
        Math.max(6 * min, OmReplica.STAGING_TIMEOUT_FLOOR.toMillis()), TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
    RaftServerConfigKeys.Read.setTimeout(p,
        TimeDuration.valueOf(o.requestTimeout().toMillis(), TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
    RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, o.snapshotEvery());
    // Without this a replica that is down pins the leader's log for ever.
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
    // Only whole closed segments are purged: about one segment per snapshot interval lets the
    // log behind a snapshot go (entries are a few hundred bytes), within Ratis' usual sizes.
    long segment = Math.min(32L << 20, Math.max(8L << 10, o.snapshotEvery() * 512));
    RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(segment));
    RaftServerConfigKeys.Log.setPurgeGap(p, (int) Math.min(o.snapshotEvery(), 1024));
    // The store is the snapshot: a replica behind the purged log is told to install one rather
    // than sent files by Ratis.
    RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(p, false);
    return p;
  }
}
