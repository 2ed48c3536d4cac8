package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.tls.TestCertificates;
import io.sediment.om.tls.TlsMaterial;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.OmServiceGrpc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gRPC server over TLS: who gets through the handshake, and who does not. */
class OmGrpcTlsTest {

  @TempDir
  Path dir;

  private TestCertificates ca;
  private TestCertificates otherCa;
  private OmMetadataStore store;
  private OmGrpcServer server;

  @BeforeEach
  void setUp() throws IOException {
    ca = TestCertificates.newCa(dir.resolve("certs"), "test-ca");
    otherCa = TestCertificates.newCa(dir.resolve("certs"), "other-ca");
    store = OmMetadataStore.open(dir.resolve("om"), OmStoreOptions.defaults());
  }

  @AfterEach
  void tearDown() {
    if (server != null) {
      server.shutdown(Duration.ofSeconds(5));
    }
    store.close();
  }

  private boolean volumeExists(String name) {
    return store.listVolumes(name, "", 1).items().stream()
        .anyMatch(v -> v.getName().equals(name));
  }

  private void serve(TestCertificates.Pem identity, Path clientCa) throws IOException {
    server = OmGrpcServer.builder(store).port(0).drainTimeout(Duration.ofSeconds(2))
        .credentials(TlsMaterial.load(identity.cert(), identity.key(), clientCa)
            .serverCredentials())
        .build().start();
  }

  /** Creates a volume through a channel with {@code credentials}; the channel is closed after. */
  private String createVolume(ChannelCredentials credentials, String name) {
    ManagedChannel channel = Grpc.newChannelBuilderForAddress("localhost", server.port(),
        credentials).build();
    try {
      return OmServiceGrpc.newBlockingStub(channel).withDeadlineAfter(20, TimeUnit.SECONDS)
          .createVolume(CreateVolumeRequest.newBuilder().setVolume(name).setOwner("o").build())
          .getVolume().getName();
    } finally {
      channel.shutdownNow();
    }
  }

  private static ChannelCredentials trusting(TestCertificates.Pem caCert,
      TestCertificates.Pem identity) throws IOException {
    return TlsMaterial.load(identity == null ? null : identity.cert(),
        identity == null ? null : identity.key(), caCert.cert()).channelCredentials();
  }

  @Test
  void aClientTrustingTheServersCaCallsOverTls() throws IOException {
    serve(ca.server("om"), null);
    assertTrue(server.tls());
    assertEquals("vol1", createVolume(trusting(ca.ca(), null), "vol1"));
    assertTrue(volumeExists("vol1"));
  }

  @Test
  void aClientTrustingAnotherCaIsRefusedAndChangesNothing() throws IOException {
    serve(ca.server("om"), null);
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> createVolume(trusting(otherCa.ca(), null), "vol1"));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    assertFalse(volumeExists("vol1"));
  }

  @Test
  void aPlaintextClientIsRefused() throws IOException {
    serve(ca.server("om"), null);
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> createVolume(InsecureChannelCredentials.create(), "vol1"));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    assertFalse(volumeExists("vol1"));
  }

  @Test
  void anExpiredServerCertificateIsRefused() throws IOException {
    serve(ca.expired("om"), null);
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> createVolume(trusting(ca.ca(), null), "vol1"));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    assertFalse(volumeExists("vol1"));
  }

  @Test
  void withAClientCaOnlyClientsWithACertificateItSignedGetIn() throws IOException {
    serve(ca.server("om"), ca.ca().cert());
    assertThrows(StatusRuntimeException.class,
        () -> createVolume(trusting(ca.ca(), null), "nocert"), "no client certificate");
    assertThrows(StatusRuntimeException.class,
        () -> createVolume(trusting(ca.ca(), otherCa.client("mallory")), "othercert"),
        "a client certificate another CA signed");
    assertFalse(volumeExists("nocert"));
    assertFalse(volumeExists("othercert"));
    assertEquals("vol1", createVolume(trusting(ca.ca(), ca.client("alice")), "vol1"));
  }

  @Test
  void aKeyThatIsNotTheCertificatesIsRefusedNamingTheFiles() {
    TestCertificates.Pem a = ca.server("a");
    TestCertificates.Pem b = ca.server("b");
    IOException e = assertThrows(IOException.class, () -> TlsMaterial.load(a.cert(), b.key(), null));
    assertTrue(e.getMessage().contains(b.key().toString()), e.getMessage());
    IOException notPem = assertThrows(IOException.class,
        () -> TlsMaterial.load(a.key(), a.key(), null));
    assertTrue(notPem.getMessage().contains("No PEM certificate"), notPem.getMessage());
  }

  @Test
  void aChainFileAndAPkcs1KeyLoadAndServe() throws IOException {
    // A chain file with the CA after the leaf, and an RSA key in the traditional PKCS#1 form
    // ("BEGIN RSA PRIVATE KEY") rather than PKCS#8.
    TestCertificates.Pem s = ca.serverWithPkcs1Key("om");
    assertTrue(Files.readString(s.key()).startsWith("-----BEGIN RSA PRIVATE KEY-----"));
    Path chain = dir.resolve("chain.pem");
    Files.writeString(chain, Files.readString(s.cert()) + Files.readString(ca.ca().cert()));
    serve(new TestCertificates.Pem(chain, s.key()), null);
    assertEquals("vol1", createVolume(trusting(ca.ca(), null), "vol1"));
  }

}
