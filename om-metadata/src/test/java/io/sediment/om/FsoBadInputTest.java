package io.sediment.om;

import static io.sediment.om.FsoTestSupport.putFile;
import static io.sediment.om.OmTestSupport.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * FSO bad input: every rejected call throws {@link OmException} with the documented code and
 * leaves every table byte-for-byte unchanged (a full dump of all tables before and after, through
 * {@link OmTestSupport#assertRejected}).
 */
class FsoBadInputTest {

  private static final String V = "vol1";
  private static final String B = "fso1";

  /** Paths that break a component or text rule. */
  private static final List<String> BAD_PATHS = Arrays.asList(
      null, "//", "///", "a//b", "/a//b", "a/b//", "//a", ".", "..", "a/.", "a/..", "./a",
      "a/./b", "a/../b", "/..", "x".repeat(OmValidation.MAX_STORED_KEY_BYTES + 1),
      "\u20ac".repeat(OmValidation.MAX_STORED_KEY_BYTES / 3 + 1), "lone\uD800", "\uDC00x",
      "end\uD83D", "a/\uDFFF/b");

  @RegisterExtension
  final OmStoreExtension omStore =
      OmStoreExtension.withOptions(OmStoreOptions.defaults().withMaxListSize(20)
          .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;
  private long clientId;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    om.createBucket(V, "obs1", BucketLayout.OBJECT_STORE, null, 0);
    putFile(om, V, B, "d/f", 3);
    putFile(om, V, B, "d/e/g", 4);
    putFile(om, V, B, "top", 5);
    om.fso().createDirectory(V, B, "empty");
    clientId = om.fso().createFile(V, B, "d/open", null).clientId();
  }

  private void invalid(Executable call) {
    assertRejected(om, Code.INVALID_ARGUMENT, call);
  }

  @Test
  void newPathsOver1024BytesAreInvalidWhereTheyWouldBeCreated() {
    for (String p : new String[] {"x".repeat(1025), "\u20ac".repeat(342)}) {
      invalid(() -> om.fso().createDirectory(V, B, p));
      invalid(() -> om.fso().createFile(V, B, p, null));
      invalid(() -> om.fso().rename(V, B, "top", p));
      // Elsewhere such a path may exist (grown by renames of its ancestors): it is looked up.
      assertRejected(om, Code.NOT_FOUND, () -> om.fso().getFileStatus(V, B, p));
    }
  }

  @Test
  void malformedPathsAreInvalidEverywhere() {
    for (String p : BAD_PATHS) {
      invalid(() -> om.fso().createDirectory(V, B, p));
      invalid(() -> om.fso().createFile(V, B, p, null));
      invalid(() -> om.fso().commitFile(V, B, p, clientId, 1));
      invalid(() -> om.fso().lookupFile(V, B, p));
      invalid(() -> om.fso().getFileStatus(V, B, p));
      invalid(() -> om.fso().deleteFile(V, B, p));
      invalid(() -> om.fso().deleteDirectory(V, B, p, true));
      invalid(() -> om.fso().rename(V, B, p, "x"));
      invalid(() -> om.fso().rename(V, B, "top", p));
      invalid(() -> om.fso().listStatus(V, B, p, false, null, 5, null));
      if (p != null) {
        invalid(() -> om.fso().listStatus(V, B, "", true, p, 5, null));
      }
    }
  }

  @Test
  void messagesNameTheRuleBroken() {
    OmException e = assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().createDirectory(V, B, "a//b"));
    assertTrue(e.getMessage().contains("empty component"), e.getMessage());
    e = assertRejected(om, Code.INVALID_ARGUMENT, () -> om.fso().createDirectory(V, B, "a/../b"));
    assertTrue(e.getMessage().contains("'..'"), e.getMessage());
    e = assertRejected(om, Code.INVALID_ARGUMENT, () -> om.fso().createDirectory(V, B, "x".repeat(1025)));
    assertTrue(e.getMessage().contains("1025 UTF-8 bytes"), e.getMessage());
    e = assertRejected(om, Code.INVALID_ARGUMENT, () -> om.fso().createDirectory(V, B, "bad\uD800"));
    assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
  }

  @Test
  void validEdgesAreAccepted() {
    String max = "\u00e9".repeat(511) + "/x";
    assertEquals(1024, max.getBytes(StandardCharsets.UTF_8).length);
    om.fso().createDirectory(V, B, max);
    assertEquals(max, om.fso().getFileStatus(V, B, max).path());
    // The limit on a new path applies to the path as given, before a leading or trailing '/' is
    // dropped; a path that exists may be addressed in any of its forms.
    invalid(() -> om.fso().createDirectory(V, B, "/" + max));
    assertEquals(max, om.fso().getFileStatus(V, B, "/" + max).path());
    assertEquals("d/e", om.fso().getFileStatus(V, B, "/d/e/").path());
    // Dots inside names, spaces and other characters are names like any other.
    for (String p : new String[] {"...", ".a", "a.", "a b", "-", "\u0001", "\uD83D\uDE00"}) {
      om.fso().createDirectory(V, B, "ok/" + p);
    }
    assertEquals(7, om.fso().listStatus(V, B, "ok", false, null, 20, null).items().size());
  }

  @Test
  void invalidUtf8BytesAreRejectedBeforeAnyPathRule() {
    for (byte[] bad : new byte[][] {{'a', (byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0,
        (byte) 0x80}, {'a', (byte) 0xE2, (byte) 0x82}, {(byte) 0xFF}}) {
      invalid(() -> OmValidation.decodePath(bad));
    }
    invalid(() -> OmValidation.decodePath(null));
    assertEquals("a/\u20ac", OmValidation.decodePath("a/\u20ac".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void theRootCannotBeCreatedDeletedRenamedOrReadAsAFile() {
    for (String root : new String[] {"", "/"}) {
      invalid(() -> om.fso().createDirectory(V, B, root));
      invalid(() -> om.fso().createFile(V, B, root, null));
      invalid(() -> om.fso().commitFile(V, B, root, clientId, 1));
      invalid(() -> om.fso().deleteFile(V, B, root));
      invalid(() -> om.fso().deleteDirectory(V, B, root, true));
      invalid(() -> om.fso().rename(V, B, root, "x"));
      invalid(() -> om.fso().rename(V, B, "top", root));
      assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().lookupFile(V, B, root));
    }
    assertTrue(om.fso().getFileStatus(V, B, "").isDirectory());
  }

  @Test
  void namesAndLayoutsAreChecked() {
    invalid(() -> om.fso().createDirectory("BAD", B, "a"));
    invalid(() -> om.fso().createDirectory(V, "b_", "a"));
    invalid(() -> om.fso().listStatus(V, null, "", false, null, 5, null));
    invalid(() -> om.fso().createFile(V, B, "a", "owner\uD800"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().createDirectory("novol", B, "a"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().createDirectory(V, "nobuck", "a"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().listStatus(V, "nobuck", "", false, null, 5, null));
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.fso().createDirectory(V, "obs1", "a"));
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.fso().createFile(V, "obs1", "a", null));
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.fso().getFileStatus(V, "obs1", ""));
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.fso().rename(V, "obs1", "a", "b"));
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.fso().deleteDirectory(V, "obs1", "a", true));
  }

  @Test
  void conflictsWithWhatExistsAreTyped() {
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.fso().createDirectory(V, B, "top"));
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().createDirectory(V, B, "top/x/y"));
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.fso().createFile(V, B, "d", null));
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.fso().createFile(V, B, "d/e", null));
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().createFile(V, B, "top/x", null));
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().createFile(V, B, "d/f/x/y", null));
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().deleteFile(V, B, "d"));
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().deleteDirectory(V, B, "top", true));
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().deleteDirectory(V, B, "d", false));
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().lookupFile(V, B, "d/e"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().lookupFile(V, B, "top/x"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().lookupFile(V, B, "nope"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().getFileStatus(V, B, "d/nope/x"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().deleteFile(V, B, "d/nope"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().deleteFile(V, B, "nope/f"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().deleteDirectory(V, B, "nope", true));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().deleteDirectory(V, B, "top/x", true));
  }

  @Test
  void renameRulesAreTyped() {
    invalid(() -> om.fso().rename(V, B, "d", "d/e/x"));
    invalid(() -> om.fso().rename(V, B, "d", "d/x"));
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.fso().rename(V, B, "d", "d"));
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.fso().rename(V, B, "top", "d/f"));
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.fso().rename(V, B, "top", "empty"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().rename(V, B, "nope", "x"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().rename(V, B, "top", "no/such/x"));
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().rename(V, B, "empty", "top/x"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().rename(V, B, "top/x", "y"));
  }

  @Test
  void commitNeedsTheRightOpenSession() {
    assertRejected(om, Code.FAILED_PRECONDITION,
        () -> om.fso().commitFile(V, B, "d/open", clientId + 1, 1));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().commitFile(V, B, "d/other", clientId, 1));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().commitFile(V, B, "open", clientId, 1));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().commitFile(V, B, "nope/open", clientId, 1));
    assertRejected(om, Code.FAILED_PRECONDITION,
        () -> om.fso().commitFile(V, B, "top/open", clientId, 1));
    invalid(() -> om.fso().commitFile(V, B, "d/open", clientId, -1));
    om.fso().commitFile(V, B, "d/open", clientId, 1);
    OmException e = assertRejected(om, Code.NOT_FOUND,
        () -> om.fso().commitFile(V, B, "d/open", clientId, 1));
    assertTrue(e.getMessage().contains("already committed"), e.getMessage());
  }

  @Test
  void listingArgumentsAreChecked() {
    // 0 is the empty page (ZeroPageSizeTest).
    for (int bad : new int[] {-1, Integer.MIN_VALUE, 21}) {
      invalid(() -> om.fso().listStatus(V, B, "", false, null, bad, null));
      invalid(() -> om.fso().listStatus(V, B, "", true, null, bad, null));
    }
    invalid(() -> om.fso().listStatus(V, B, "d", false, "top", 5, null));
    invalid(() -> om.fso().listStatus(V, B, "d", true, "d2/x", 5, null));
    invalid(() -> om.fso().listStatus(V, B, "d/e", false, "d", 5, null));
    // The cap itself is accepted; open files are not listed.
    assertEquals(List.of("d", "d/e", "d/e/g", "d/f", "empty", "top"),
        FsoTestSupport.paths(om.fso().listStatus(V, B, "", true, null, 20, null)));
  }

  @Test
  void forgedForeignAndStaleTokensAreRejected() {
    for (int i = 0; i < 6; i++) {
      putFile(om, V, B, "d/k" + i, 1);
    }
    String token = om.fso().listStatus(V, B, "d", false, null, 2, null).nextToken();
    byte[] raw = Base64.getUrlDecoder().decode(token);
    Base64.Encoder enc = Base64.getUrlEncoder().withoutPadding();
    for (int i = 0; i < raw.length; i += 3) {
      byte[] flipped = raw.clone();
      flipped[i] ^= 0x01;
      String forged = enc.encodeToString(flipped);
      invalid(() -> om.fso().listStatus(V, B, "d", false, null, 2, forged));
    }
    for (String junk : new String[] {"!!!", "a", "x".repeat(5000),
        enc.encodeToString(Arrays.copyOf(raw, raw.length - 1))}) {
      invalid(() -> om.fso().listStatus(V, B, "d", false, null, 2, junk));
    }
    invalid(() -> om.fso().listStatus(V, B, "d/e", false, null, 2, token));
    invalid(() -> om.fso().listStatus(V, B, "d", true, null, 2, token));
    OmTestSupport.put(om, V, "obs1", "k1", 1);
    OmTestSupport.put(om, V, "obs1", "k2", 1);
    String keysToken = om.listKeys(V, "obs1", null, null, 1, null).nextToken();
    invalid(() -> om.fso().listStatus(V, B, "d", false, null, 2, keysToken));
    // A re-created bucket of the same name does not accept the old bucket's tokens.
    String rootToken = om.fso().listStatus(V, B, "", false, null, 1, null).nextToken();
    assertEquals(2, om.fso().listStatus(V, B, "d", false, null, 2, token).items().size());
    om.fso().deleteDirectory(V, B, "d", true);
    om.fso().deleteFile(V, B, "top");
    om.fso().deleteDirectory(V, B, "empty", false);
    FsoTestSupport.purgeAll(om, 1000);
    om.deleteBucket(V, B);
    om.createBucket(V, B, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    putFile(om, V, B, "a", 1);
    putFile(om, V, B, "b", 1);
    invalid(() -> om.fso().listStatus(V, B, "", false, null, 1, rootToken));
  }

  @Test
  void purgeNeedsAPositiveBudget() {
    invalid(() -> om.fso().purgeDeletedDirectories(0));
    invalid(() -> om.fso().purgeDeletedDirectories(-5));
  }
}
