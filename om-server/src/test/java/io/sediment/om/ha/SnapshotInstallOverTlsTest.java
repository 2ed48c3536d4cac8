package io.sediment.om.ha;

import java.nio.file.Path;
import java.time.Duration;

/**
 * {@link SnapshotInstallTest} with the replicas on mutual TLS: the copy of the leader's store is
 * fetched over TLS, showing the replica's certificate to a server that requires one.
 */
class SnapshotInstallOverTlsTest extends SnapshotInstallTest {

  @Override
  ReplicaCluster newCluster(Path dir, Duration election, long snapshotEvery) throws Exception {
    return new ReplicaCluster(dir, 3, election, false, true, snapshotEvery,
        ReplicatedTlsTest.replicaTls(dir.resolve("certs")));
  }
}
