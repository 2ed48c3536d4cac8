package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.InsecureChannelCredentials;
import io.grpc.StatusRuntimeException;
import io.sediment.om.client.OmClient;
import io.sediment.om.tls.TestCertificates;
import io.sediment.om.tls.TlsMaterial;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.OmServiceGrpc;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three replicas whose Raft traffic and gRPC servers use mutual TLS: they elect a leader and
 * replicate a write a TLS client sends; a plaintext client gets nowhere.
 */
class ReplicatedTlsTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path root;

  /** One certificate (for 127.0.0.1) and the CA every replica trusts its peers by. */
  static TlsMaterial replicaTls(Path dir) throws Exception {
    TestCertificates ca = TestCertificates.newCa(dir, "replicas-ca");
    TestCertificates.Pem replica = ca.server("replica");
    return TlsMaterial.load(replica.cert(), replica.key(), ca.ca().cert());
  }

  /** Completes a TLS handshake with the Raft server on {@code port}; returns the ALPN chosen. */
  private static String raftPortHandshake(TlsMaterial tls, int port) throws Exception {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(new KeyManager[] {tls.keyManager()}, new TrustManager[] {tls.trustManager()},
        null);
    try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1",
        port)) {
      socket.setSoTimeout(10_000);
      SSLParameters params = socket.getSSLParameters();
      params.setApplicationProtocols(new String[] {"h2"});
      socket.setSSLParameters(params);
      socket.startHandshake();
      return socket.getApplicationProtocol();
    }
  }

  @Test
  void aGroupOverTlsElectsALeaderAndReplicatesAWrite() throws Exception {
    TlsMaterial tls = replicaTls(root.resolve("certs"));
    try (ReplicaCluster cluster = new ReplicaCluster(root, 3, Duration.ofMillis(400), false, true,
        HaOptions.DEFAULT_SNAPSHOT_EVERY, tls)) {
      try (OmClient client = OmClient.connect(cluster.rpcTargets(), OmClient.Options.defaults()
          .withCallTimeout(WAIT), tls.channelCredentials())) {
        client.call(OmServiceGrpc.getCreateVolumeMethod(),
            CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("alice").build());
      }
      ReplicaCluster.Node leader = cluster.leader(WAIT);
      cluster.awaitCaughtUp(leader, WAIT);
      for (ReplicaCluster.Node n : cluster.running.values()) {
        assertEquals("alice", n.store.getVolumeInfo("vol").getOwner(), n.id);
      }
      for (HaPeers.Peer p : cluster.peers.all()) {
        assertEquals("h2", raftPortHandshake(tls, p.raftPort()),
            "the Raft port of " + p.id() + " speaks TLS");
      }

      try (OmClient plaintext = OmClient.connect(cluster.rpcTargets(), OmClient.Options.defaults()
          .withCallTimeout(Duration.ofSeconds(2)), InsecureChannelCredentials.create())) {
        assertThrows(StatusRuntimeException.class, () -> plaintext.call(
            OmServiceGrpc.getCreateVolumeMethod(),
            CreateVolumeRequest.newBuilder().setVolume("plain").setOwner("eve").build()));
      }
    }
  }
}
