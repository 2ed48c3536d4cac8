package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.sediment.db.BatchOperation;
import io.sediment.db.Table;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.LogPosition;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.om.requests.ReadGate;
import io.sediment.om.requests.Replication;
import io.sediment.om.requests.WritePath;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.GetReplicationStatusResponse;
import io.sediment.proto.om.GroupMember;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmLogEntry;
import java.nio.file.Path;
import java.util.List;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cost of catching up by snapshot install at scale: a leader store of
 * {@code -Dsediment.ha.installKeys} committed keys (one through the write path, the others copies
 * of it written in batches, then recounted and given an applied position) served by its OM gRPC server's ReplicationService; an empty replica downloads
 * the copy over loopback and installs it. Prints the files, bytes and times and checks the
 * replica's counters and a sample of keys. Off by default (a long run: see README, "Longer
 * suites"); the Raft side of an install is proved by {@link SnapshotInstallTest}.
 */
@EnabledIfSystemProperty(named = "sediment.ha.installKeys", matches = "\\d+")
class SnapshotInstallScaleTest {

  @TempDir
  Path root;

  /** Binds ReplicationService without a Raft group: nothing here writes or gates reads. */
  private static final Replication COPIES_ONLY = new Replication() {
    @Override
    public WritePath writes() {
      return new WritePath() {
        @Override
        public <R extends Message> R write(OmLogEntry.Builder entry, Parser<R> parser) {
          throw new UnsupportedOperationException("this test only serves copies");
        }
      };
    }

    @Override
    public ReadGate reads() {
      return ReadGate.NONE;
    }

    @Override
    public GetReplicationStatusResponse status() {
      return GetReplicationStatusResponse.getDefaultInstance();
    }

    @Override
    public void transferLeader(String toReplica, Duration timeout) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<GroupMember> addPeer(String replicaId, String host, int raftPort, int rpcPort,
        Duration timeout) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<GroupMember> removePeer(String replicaId, Duration timeout) {
      throw new UnsupportedOperationException();
    }
  };

  private static long size(int i) {
    return 1 + (i * 2_654_435_761L) % 100_000_000L;
  }

  private static String name(int i) {
    return String.format("dir%03d/key%09d", i % 1000, i);
  }

  @Test
  void aReplicaInstallsACopyOfALargeStore() throws Exception {
    int keys = Integer.getInteger("sediment.ha.installKeys");
    OmStoreOptions options = OmStoreOptions.defaults()
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE);
    try (OmMetadataStore leader = OmMetadataStore.open(root.resolve("leader"), options);
         OmMetadataStore replica = OmMetadataStore.open(root.resolve("replica"), options)) {
      long loadStart = System.nanoTime();
      leader.createVolume("vol", "alice");
      leader.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, "alice", 0);
      // One key through the write path is the template of the rest, written in batches of
      // 10,000 straight into the key table (the write path would take most of the run); the
      // counters are then recounted from the rows.
      OpenKeySession s = leader.openKey("vol", "obs", name(0), "alice");
      KeyInfo template = leader.commitKey("vol", "obs", name(0), s.clientId(), 4096);
      Table<String, KeyInfo> keyTable = leader.dbStore().getTable(OmDBDefinition.KEY_TABLE);
      for (int from = 1; from < keys; from += 10_000) {
        try (BatchOperation batch = leader.dbStore().initBatchOperation()) {
          for (int i = from; i < Math.min(keys, from + 10_000); i++) {
            keyTable.putWithBatch(batch, OmKeys.objectKey("vol", "obs", name(i)),
                template.toBuilder().setKeyName(name(i)).setObjectId(template.getObjectId() + i)
                    .setDataSize(size(i)).setModificationTime(template.getModificationTime() + i)
                    .build());
          }
          leader.dbStore().commitBatchOperation(batch);
        }
      }
      leader.recount();
      LogPosition position = new LogPosition(1, keys + 4L);
      leader.appliedLog().recordApplied(position);
      leader.dbStore().flush();
      long loadMs = (System.nanoTime() - loadStart) / 1_000_000;

      OmGrpcServer server = OmGrpcServer.builder(leader).port(0).replication(COPIES_ONLY)
          .drainTimeout(Duration.ofSeconds(1)).build();
      server.start();
      try {
        SnapshotInstall install = new SnapshotInstall(replica, "replica",
            id -> server.target(), SnapshotInstall.DOWNLOAD_TIMEOUT);
        long fetchStart = System.nanoTime();
        CheckpointDownload.Received copy = install.download("leader", null);
        long fetchMs = (System.nanoTime() - fetchStart) / 1_000_000;
        long installStart = System.nanoTime();
        LogPosition installed = install.install(copy);
        long installMs = (System.nanoTime() - installStart) / 1_000_000;

        assertEquals(position, installed);
        assertEquals(leader.counters(), replica.counters());
        for (int i = 0; i < keys; i += Math.max(1, keys / 100)) {
          assertEquals(i == 0 ? 4096 : size(i),
              replica.lookupKey("vol", "obs", name(i)).getDataSize());
        }
        System.out.printf("INSTALL keys=%d files=%d bytes=%d load_ms=%d download_ms=%d "
            + "install_ms=%d%n", keys, copy.files(), copy.bytes(), loadMs, fetchMs, installMs);
      } finally {
        server.close();
      }
    }
  }
}
