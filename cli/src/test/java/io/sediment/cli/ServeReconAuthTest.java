package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.cli.ServeReconTest.Serving;
import io.sediment.om.tls.TestCertificates;
import io.sediment.om.tls.TlsMaterial;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --auth} beyond loopback puts Recon behind the same bearer tokens: no or a bad token
 * is 401, a token of someone who is not an administrator 403, an administrator's token reads.
 */
class ServeReconAuthTest {

  @TempDir Path dir;

  @Test
  void reconBeyondLoopbackAdmitsAdministratorsTokensOnly() throws Exception {
    Path data = dir.resolve("data");
    Run root = run("token", "create", "--data", data.toString(), "--principal", "root");
    assertEquals(0, root.code(), root.err());
    Run alice = run("token", "create", "--data", data.toString(), "--principal", "alice");
    assertEquals(0, alice.code(), alice.err());
    TestCertificates ca = TestCertificates.newCa(dir.resolve("certs"), "recon-ca");
    TestCertificates.Pem cert = ca.server("om");
    Serving s = Serving.start(data, "--host", "0.0.0.0", "--recon-port", "0", "--tls-cert",
        cert.cert().toString(), "--tls-key", cert.key().toString(), "--auth", "--admin", "root");
    try {
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, new TrustManager[] {
          TlsMaterial.load(null, null, ca.ca().cert()).trustManager()}, null);
      HttpClient http = HttpClient.newBuilder().sslContext(tls).build();
      String url = "https://127.0.0.1:" + s.serve().recon.port()
          + "/api/v1/namespace/summary?path=/";
      assertEquals(401, get(http, url, null).statusCode());
      assertEquals(401, get(http, url, "Bearer sdt_0123_wrong").statusCode());
      assertEquals(403, get(http, url, "Bearer " + alice.out().strip()).statusCode());
      HttpResponse<String> ok = get(http, url, "Bearer " + root.out().strip());
      assertEquals(200, ok.statusCode(), ok.body());
    } finally {
      s.stop();
    }
  }

  private static HttpResponse<String> get(HttpClient http, String url, String authorization)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(30));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
