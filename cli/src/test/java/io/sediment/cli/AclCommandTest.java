package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.om.OmAcls;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.acl.AclTarget;
import io.sediment.om.acl.AclText;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.proto.om.BucketLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sediment acl get|set|add|remove} against a running server: each prints the target's ACL
 * afterwards in the text form; a bad entry or path is a usage error (exit 2) that sends nothing;
 * a missing target fails (exit 1) naming NOT_FOUND.
 */
class AclCommandTest {

  @TempDir
  Path dir;

  @Test
  void getSetAddRemoveOnARunningServer() throws Exception {
    try (OmMetadataStore om = OmMetadataStore.open(dir.resolve("om"))) {
      om.createVolume("vol", "alice");
      om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
      om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      om.commitKey("vol", "obs", "dir/k", om.openKey("vol", "obs", "dir/k", "bob").clientId(), 1);
      om.fso().createDirectory("vol", "fso", "a/b");
      OmGrpcServer server = OmGrpcServer.builder(om).port(0).build().start();
      try {
        String t = server.target();
        Run get = run("acl", "get", "/vol", "--target", t);
        assertEquals(0, get.code(), get.err());
        assertEquals("user:alice:a\n", get.out());

        Run add = run("acl", "add", "--target", t, "/vol/obs", "group:dev:rl[DEFAULT],world::r",
            "user:carol:w");
        assertEquals(0, add.code(), add.err());
        assertEquals(List.of("user:alice:a", "user:carol:w", "world::r", "group:dev:rl[DEFAULT]"),
            add.out().lines().toList());

        Run set = run("acl", "set", "vol/obs/dir/k", "user:eve:rwx", "--target", t);
        assertEquals(0, set.code(), set.err());
        assertEquals("user:eve:rwx\n", set.out());
        Run remove = run("acl", "remove", "/vol/fso/a/b", "user:alice:wcldxy", "--target", t);
        assertEquals(0, remove.code(), remove.err());
        assertEquals("user:alice:r\n", remove.out());
        assertEquals(List.of("user:eve:rwx"),
            AclText.formatAll(new OmAcls(om).get(AclTarget.key("vol", "obs", "dir/k"))));

        Run bad = run("acl", "add", "/vol/obs", "user:alice:rq", "--target", t);
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("Bad ACL 'user:alice:rq': unknown right 'q'"), bad.err());
        Run none = run("acl", "add", "/vol/obs", "--target", t);
        assertEquals(2, none.code(), none.err());
        Run noBucket = run("acl", "get", "/vol//k", "--target", t);
        assertEquals(2, noBucket.code(), noBucket.err());
        assertTrue(noBucket.err().contains("/VOLUME[/BUCKET[/KEY]]"), noBucket.err());
        Run missing = run("acl", "get", "/vol/obs/nokey", "--target", t);
        assertEquals(1, missing.code(), missing.err());
        assertTrue(missing.err().contains("NOT_FOUND"), missing.err());
        Run defaultOnKey = run("acl", "add", "/vol/obs/dir/k", "user:x:r[DEFAULT]", "--target", t);
        assertEquals(1, defaultOnKey.code(), defaultOnKey.err());
        assertTrue(defaultOnKey.err().contains("INVALID_ARGUMENT"), defaultOnKey.err());

        assertEquals(List.of("user:alice:a", "user:carol:w", "world::r", "group:dev:rl[DEFAULT]"),
            AclText.formatAll(new OmAcls(om).get(AclTarget.bucket("vol", "obs"))));

        Run prefix = run("acl", "add", "--prefix", "/vol/obs/logs/", "user:dan:r[DEFAULT],user:dan:r",
            "--target", t);
        assertEquals(0, prefix.code(), prefix.err());
        assertEquals(List.of("user:dan:r", "user:dan:r[DEFAULT]"), prefix.out().lines().toList());
        assertEquals(List.of("user:dan:r", "user:dan:r[DEFAULT]"), AclText.formatAll(
            new OmAcls(om).get(AclTarget.prefix("vol", "obs", "logs/"))));
        Run noSlash = run("acl", "get", "--prefix", "/vol/obs/logs", "--target", t);
        assertEquals(1, noSlash.code(), noSlash.err());
        assertTrue(noSlash.err().contains("must end with '/'"), noSlash.err());
        Run noPrefix = run("acl", "get", "--prefix", "/vol/obs", "--target", t);
        assertEquals(2, noPrefix.code(), noPrefix.err());
      } finally {
        server.shutdown(Duration.ofSeconds(5));
      }
    }
  }

  @Test
  void helpDescribesTheTextForm() {
    Run help = run("acl", "--help");
    assertEquals(0, help.code());
    assertTrue(help.out().contains("TYPE:NAME:RIGHTS[SCOPE]"), help.out());
    for (String sub : List.of("get", "set", "add", "remove")) {
      Run h = run("acl", sub, "--help");
      assertEquals(0, h.code(), sub);
      assertTrue(h.out().contains("Usage: sediment acl " + sub), h.out());
    }
    assertEquals(2, run("acl").code());
  }
}
