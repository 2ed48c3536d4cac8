package io.sediment.om.tls;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.sediment.db.testing.Eventually;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.OmServiceGrpc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS files replaced on disk while the server runs: a reload serves them to new connections, a
 * damaged replacement is refused naming the file while the material in place keeps serving.
 */
class TlsReloadTest {

  @TempDir
  Path dir;

  private TestCertificates ca;
  private TestCertificates otherCa;
  private Path cert;
  private Path key;
  private Path clientCa;
  private OmMetadataStore store;
  private OmGrpcServer server;
  private final AtomicInteger volumes = new AtomicInteger();

  @BeforeEach
  void setUp() {
    ca = TestCertificates.newCa(dir.resolve("certs"), "test-ca");
    otherCa = TestCertificates.newCa(dir.resolve("certs"), "other-ca");
    cert = dir.resolve("live/server.crt");
    key = dir.resolve("live/server.key");
    clientCa = dir.resolve("live/client-ca.crt");
    store = OmMetadataStore.open(dir.resolve("om"), OmStoreOptions.defaults());
  }

  @AfterEach
  void tearDown() {
    if (server != null) {
      server.shutdown(Duration.ofSeconds(5));
    }
    store.close();
  }

  /** Puts {@code identity} (and a client CA, if not null) where the server reads its files. */
  private void place(TestCertificates.Pem identity, TestCertificates.Pem caCert)
      throws IOException {
    Files.createDirectories(cert.getParent());
    Files.copy(identity.cert(), cert, StandardCopyOption.REPLACE_EXISTING);
    Files.copy(identity.key(), key, StandardCopyOption.REPLACE_EXISTING);
    if (caCert != null) {
      Files.copy(caCert.cert(), clientCa, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private TlsMaterial serve(boolean mutual) throws IOException {
    TlsMaterial m = TlsMaterial.load(cert, key, mutual ? clientCa : null);
    server = OmGrpcServer.builder(store).port(0).drainTimeout(Duration.ofSeconds(2))
        .credentials(m.serverCredentials()).build().start();
    return m;
  }

  /** Whether a new connection trusting {@code caCert} (showing {@code identity}) gets a call in. */
  private boolean callsIn(TestCertificates.Pem caCert, TestCertificates.Pem identity)
      throws IOException {
    ChannelCredentials c = TlsMaterial.load(identity == null ? null : identity.cert(),
        identity == null ? null : identity.key(), caCert.cert()).channelCredentials();
    ManagedChannel channel = Grpc.newChannelBuilderForAddress("localhost", server.port(), c)
        .build();
    try {
      OmServiceGrpc.newBlockingStub(channel).withDeadlineAfter(20, TimeUnit.SECONDS)
          .createVolume(CreateVolumeRequest.newBuilder()
              .setVolume("vol" + volumes.incrementAndGet()).setOwner("o").build());
      return true;
    } catch (StatusRuntimeException refused) {
      return false;
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  void aRenewedCertificateIsServedAfterAReloadWithoutARestart() throws IOException {
    place(ca.expired("om"), null);
    TlsMaterial m = serve(false);
    assertFalse(callsIn(ca.ca(), null), "the expired certificate is refused by clients");
    place(ca.server("om"), null);
    assertTrue(m.reload(), "the changed files are put in place");
    assertTrue(callsIn(ca.ca(), null), "a new connection gets the renewed certificate");
  }

  @Test
  void unchangedFilesReloadToNothing() throws IOException {
    place(ca.server("om"), null);
    TlsMaterial m = serve(false);
    assertFalse(m.reload());
    assertTrue(callsIn(ca.ca(), null));
  }

  @Test
  void aDamagedReplacementIsRefusedNamingTheFileAndTheOldMaterialKeepsServing()
      throws IOException {
    place(ca.server("om"), null);
    TlsMaterial m = serve(false);
    Files.writeString(key, "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n");
    IOException e = assertThrows(IOException.class, m::reload);
    assertTrue(e.getMessage().contains(key.toString()), e.getMessage());
    // A key of another certificate: refused too, naming both files.
    Files.copy(ca.server("other").key(), key, StandardCopyOption.REPLACE_EXISTING);
    e = assertThrows(IOException.class, m::reload);
    assertTrue(e.getMessage().contains(cert.toString()), e.getMessage());
    assertTrue(callsIn(ca.ca(), null), "the certificate in place still serves");
  }

  @Test
  void aReplacedClientCaLetsInTheNewCasClientsAndNoLongerTheOld() throws IOException {
    place(ca.server("om"), ca.ca());
    TlsMaterial m = serve(true);
    assertTrue(callsIn(ca.ca(), ca.client("alice")));
    assertFalse(callsIn(ca.ca(), otherCa.client("bob")));
    Files.copy(otherCa.ca().cert(), clientCa, StandardCopyOption.REPLACE_EXISTING);
    assertTrue(m.reload());
    assertTrue(callsIn(ca.ca(), otherCa.client("bob")));
    assertFalse(callsIn(ca.ca(), ca.client("alice")));
  }

  @Test
  void theReloaderPutsReplacedFilesInPlaceOnItsOwn() throws Exception {
    place(ca.expired("om"), null);
    TlsMaterial m = serve(false);
    try (TlsReloader r = TlsReloader.every(m, Duration.ofMillis(50))) {
      place(ca.server("om"), null);
      Eventually.waitFor(() -> {
        try {
          return callsIn(ca.ca(), null);
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }, 20_000, "the renewed certificate served");
    }
    assertThrows(IllegalArgumentException.class, () -> TlsReloader.every(m, Duration.ZERO));
  }
}
