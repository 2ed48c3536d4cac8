package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.cli.ServeReconTest.Serving;
import io.sediment.om.tls.TestCertificates;
import io.sediment.om.tls.TlsMaterial;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --tls-cert/--tls-key [--tls-ca]} end to end: client commands get in with
 * {@code --tls-ca} (and a client certificate when the server requires one) and fail with exit 1
 * and a clear message without; Recon answers over HTTPS; a non-loopback bind without TLS is refused.
 */
class ServeTlsTest {

  @TempDir Path dir;

  private TestCertificates ca;
  private TestCertificates.Pem server;

  @BeforeEach
  void certificates() {
    ca = TestCertificates.newCa(dir.resolve("certs"), "cli-ca");
    server = ca.server("om");
  }

  private Serving serveTls(String... more) throws InterruptedException {
    String[] flags = {"--recon-port", "0", "--tls-cert", server.cert().toString(), "--tls-key",
        server.key().toString()};
    String[] all = java.util.Arrays.copyOf(flags, flags.length + more.length);
    System.arraycopy(more, 0, all, flags.length, more.length);
    return Serving.start(dir.resolve("data"), all);
  }

  @Test
  void clientsCallWithTheCaAndFailClearlyWithoutIt() throws Exception {
    Serving s = serveTls();
    try {
      String target = s.serve().server.target();
      assertTrue(s.out().toString().contains("listening on " + target + " (TLS)"),
          s.out().toString());
      assertTrue(s.out().toString().contains("Unauthenticated"), s.out().toString());
      String caFile = ca.ca().cert().toString();

      Run load = run("load", "--target", target, "--tls-ca", caFile, "--volumes", "1",
          "--buckets", "1", "--keys", "3", "--open-keys", "0", "--fso-buckets", "0",
          "--multipart-uploads", "0", "--no-snapshots", "--no-progress");
      assertEquals(0, load.code(), load.err());
      Run ls = run("ls", "--target", target, "--tls-ca", caFile);
      assertEquals(0, ls.code(), ls.err());
      assertTrue(ls.out().strip().endsWith("load-v000"), ls.out());
      Run viaGroup = run("ls", "--target", "127.0.0.1:1," + target, "--tls-ca", caFile,
          "--timeout", "10");
      assertEquals(0, viaGroup.code(), viaGroup.err());
      assertEquals(ls.out(), viaGroup.out());

      Run plaintext = run("ls", "--target", target, "--timeout", "10");
      assertEquals(1, plaintext.code());
      assertTrue(plaintext.err().contains("--tls-ca"), plaintext.err());

      TestCertificates other = TestCertificates.newCa(dir.resolve("certs"), "other-ca");
      Run wrongCa = run("ls", "--target", target, "--tls-ca", other.ca().cert().toString(),
          "--timeout", "10");
      assertEquals(1, wrongCa.code());
      assertTrue(wrongCa.err().contains("TLS handshake failed"), wrongCa.err());

      assertTrue(s.serve().recon.url().startsWith("https://127.0.0.1:"), s.serve().recon.url());
      SSLContext trusting = SSLContext.getInstance("TLS");
      trusting.init(null, new TrustManager[] {TlsMaterial.load(null, null, ca.ca().cert())
          .trustManager()}, null);
      HttpClient https = HttpClient.newBuilder().sslContext(trusting)
          .connectTimeout(Duration.ofSeconds(10)).build();
      HttpResponse<String> summary = https.send(HttpRequest.newBuilder(URI.create(
          s.serve().recon.url() + "/api/v1/namespace/summary?path=/")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, summary.statusCode(), summary.body());
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      assertThrows(IOException.class, () -> http.send(HttpRequest.newBuilder(URI.create(
          "http://127.0.0.1:" + s.serve().recon.port() + "/api/v1/namespace/summary?path=/"))
          .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()));
    } finally {
      s.stop();
    }
    assertEquals(0, s.code().get(), s.err().toString());
  }

  @Test
  void withATlsCaClientsNeedACertificateItSigned() throws Exception {
    Serving s = serveTls("--no-recon", "--tls-ca", ca.ca().cert().toString());
    try {
      String target = s.serve().server.target();
      assertTrue(s.out().toString().contains("client certificates required"), s.out().toString());
      String caFile = ca.ca().cert().toString();
      Run noCert = run("ls", "--target", target, "--tls-ca", caFile, "--timeout", "10");
      assertEquals(1, noCert.code());
      TestCertificates.Pem client = ca.client("alice");
      Run withCert = run("ls", "--target", target, "--tls-ca", caFile, "--tls-cert",
          client.cert().toString(), "--tls-key", client.key().toString());
      assertEquals(0, withCert.code(), withCert.err());
      Run halfCert = run("ls", "--target", target, "--tls-ca", caFile, "--tls-cert",
          client.cert().toString());
      assertEquals(2, halfCert.code());
      assertTrue(halfCert.err().contains("--tls-cert and --tls-key go together"), halfCert.err());
    } finally {
      s.stop();
    }
  }

  @Test
  void aNonLoopbackBindWithoutTlsIsRefusedUnlessInsecureBindAny() {
    Path data = dir.resolve("data");
    Run refused = run("serve", "--data", data.toString(), "--host", "0.0.0.0", "--port", "0",
        "--no-recon");
    assertEquals(2, refused.code());
    assertTrue(refused.err().contains("Refusing to serve on 0.0.0.0 without TLS"), refused.err());
    assertTrue(refused.err().contains("--insecure-bind-any"), refused.err());
    assertFalse(Files.exists(data.resolve("om")), "a refused serve opens no store");

    Run halfTls = run("serve", "--data", data.toString(), "--port", "0", "--tls-cert",
        server.cert().toString());
    assertEquals(2, halfTls.code());
    assertTrue(halfTls.err().contains("--tls-cert and --tls-key go together"), halfTls.err());

    Run negativeReload = run("serve", "--data", data.toString(), "--port", "0", "--tls-cert",
        server.cert().toString(), "--tls-key", server.key().toString(), "--tls-reload-seconds",
        "-1");
    assertEquals(2, negativeReload.code());
    assertTrue(negativeReload.err().contains("--tls-reload-seconds"), negativeReload.err());

    Run replicaWithoutCa = run("serve", "--data", data.toString(), "--port", "0", "--tls-cert",
        server.cert().toString(), "--tls-key", server.key().toString(), "--ha-id", "om1",
        "--peers", "om1=127.0.0.1:1");
    assertEquals(2, replicaWithoutCa.code());
    assertTrue(replicaWithoutCa.err().contains("needs --tls-ca"), replicaWithoutCa.err());
    assertFalse(Files.exists(data.resolve("om")), "a refused serve opens no store");
  }
}
