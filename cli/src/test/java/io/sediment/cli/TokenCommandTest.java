package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.cli.ServeReconTest.Serving;
import io.sediment.om.tls.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sediment token} and {@code serve --auth}: the first administrator's token made in the
 * stopped store, then tokens made, used (--token-file, SEDIMENT_TOKEN), listed and revoked
 * through the server; the refusals of serve.
 */
class TokenCommandTest {

  @TempDir Path dir;

  @AfterEach
  void restoreEnvironment() {
    ClientTlsOptions.environment = System::getenv;
  }

  private static String secretOf(String token) {
    return token.substring(token.indexOf('_', 4) + 1);
  }

  @Test
  void anAdministratorsTokenMadeOfflineManagesTokensThroughTheServer() throws Exception {
    Path data = dir.resolve("data");
    Run boot = run("token", "create", "--data", data.toString(), "--principal", "root");
    assertEquals(0, boot.code(), boot.err());
    String rootToken = boot.out().strip();
    assertTrue(rootToken.startsWith("sdt_"), boot.out());
    assertTrue(boot.err().contains("for 'root'"), boot.err());
    Path rootFile = Files.writeString(dir.resolve("root.token"), rootToken + "\n");

    Serving s = Serving.start(data, "--no-recon", "--auth", "--admin", "root");
    try {
      String target = s.serve().server.target();
      assertTrue(s.out().toString().contains("Authenticated: every call needs a bearer token"),
          s.out().toString());
      assertFalse(s.out().toString().contains("Unauthenticated"), s.out().toString());

      Run anonymous = run("ls", "--target", target, "--timeout", "10");
      assertEquals(1, anonymous.code());
      assertTrue(anonymous.err().contains("UNAUTHENTICATED"), anonymous.err());
      assertTrue(anonymous.err().contains("--token-file"), anonymous.err());
      Run asRoot = run("ls", "--target", target, "--token-file", rootFile.toString());
      assertEquals(0, asRoot.code(), asRoot.err());

      Run made = run("token", "create", "--target", target, "--token-file", rootFile.toString(),
          "--principal", "alice", "--ttl", "1h");
      assertEquals(0, made.code(), made.err());
      String alice = made.out().strip();
      assertTrue(made.err().contains("for 'alice', valid until"), made.err());
      String aliceId = alice.substring(4, alice.indexOf('_', 4));

      ClientTlsOptions.environment = Map.of("SEDIMENT_TOKEN", rootToken)::get;
      Run list = run("token", "list", "--target", target);
      assertEquals(0, list.code(), list.err());
      assertTrue(list.out().contains(aliceId) && list.out().contains("alice"), list.out());
      assertTrue(list.out().contains("root"), list.out());
      assertFalse(list.out().contains(secretOf(alice)), "a listing shows no secret");
      assertFalse(list.out().contains(secretOf(rootToken)), "a listing shows no secret");

      Run revoke = run("token", "revoke", "--target", target, "--id", aliceId);
      assertEquals(0, revoke.code(), revoke.err());
      ClientTlsOptions.environment = Map.of("SEDIMENT_TOKEN", alice)::get;
      Run revoked = run("ls", "--target", target, "--timeout", "10");
      assertEquals(1, revoked.code());
      assertTrue(revoked.err().contains("UNAUTHENTICATED") && revoked.err().contains("revoked"),
          revoked.err());
      ClientTlsOptions.environment = Map.of("SEDIMENT_TOKEN", rootToken)::get;
      assertTrue(run("token", "list", "--target", target).out().lines()
          .anyMatch(l -> l.startsWith(aliceId) && l.endsWith("revoked")));

      Run whileServing = run("token", "create", "--data", data.toString(), "--principal", "x");
      assertEquals(1, whileServing.code());
      assertTrue(whileServing.err().contains("in use"), whileServing.err());
      Run emptyFile = run("ls", "--target", target, "--token-file",
          Files.writeString(dir.resolve("empty"), "\n").toString());
      assertEquals(1, emptyFile.code());
      assertTrue(emptyFile.err().contains("No bearer token in --token-file"), emptyFile.err());
    } finally {
      s.stop();
    }
    assertEquals(0, s.code().get(), s.err().toString());
  }

  @Test
  void serveRefusesAuthWithoutAdministratorsAndABroadBindWithoutAuth() {
    Path data = dir.resolve("data");
    Run noAdmin = run("serve", "--data", data.toString(), "--port", "0", "--no-recon", "--auth");
    assertEquals(2, noAdmin.code());
    assertTrue(noAdmin.err().contains("--auth needs at least one administrator"), noAdmin.err());

    Run adminWithoutAuth = run("serve", "--data", data.toString(), "--port", "0", "--no-recon",
        "--admin", "root");
    assertEquals(2, adminWithoutAuth.code());
    assertTrue(adminWithoutAuth.err().contains("need --auth"), adminWithoutAuth.err());

    TestCertificates ca = TestCertificates.newCa(dir.resolve("certs"), "cli-ca");
    TestCertificates.Pem server = ca.server("om");
    Run tlsNoAuth = run("serve", "--data", data.toString(), "--port", "0", "--no-recon",
        "--host", "0.0.0.0", "--tls-cert", server.cert().toString(), "--tls-key",
        server.key().toString());
    assertEquals(2, tlsNoAuth.code());
    assertTrue(tlsNoAuth.err().contains("Refusing to serve on 0.0.0.0 without authentication"),
        tlsNoAuth.err());

    Run badGroups = run("serve", "--data", data.toString(), "--port", "0", "--no-recon",
        "--auth", "--admin", "root", "--groups-file", dir.resolve("missing").toString());
    assertEquals(1, badGroups.code());
    assertTrue(badGroups.err().contains("groups file"), badGroups.err());
    assertFalse(Files.exists(data.resolve("om")), "a refused serve opens no store");
  }
}
