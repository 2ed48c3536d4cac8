package io.sediment.om;

import static io.sediment.om.FsoTestSupport.putFile;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.KeyValue;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.om.multipart.MultipartUploads;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.listing.ListObjectsV1Request;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListTokens;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.om.purge.OmPurges;
import io.sediment.om.snapshot.Snapshots;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad input over the whole {@link OmMetadataStore} facade, as one table: each row is a call with
 * one bad argument or one unmet precondition, the {@link OmException} code it must get and the
 * words its message must contain (the rule broken and, where there is one, the offending value).
 * Every row also asserts that the call changed nothing: a dump of every column family of the
 * store (every key and value, raw bytes), the files under the snapshot directory and the
 * maintained counters are identical before and after.
 *
 * <p>The rows cover: S3 bucket naming rules (for volumes, buckets and snapshots, and on the read
 * paths); key names (empty, over 1,024 UTF-8 bytes, unpaired surrogates) on every key-taking
 * call; FSO paths with {@code ..}, {@code .}, {@code //}, over 1,024 bytes or unpaired surrogates
 * on every path-taking call; negative page sizes and sizes above the cap on every listing (the S3
 * listings clamp above the cap, so only their lower bound is bad) and bad purge limits; forged
 * (bit flips in the body and in the MAC), respelled (padded, or other unused bits in the last
 * character), truncated, malformed, oversized, foreign-store, stale,
 * cross-bucket, cross-prefix, cross-delimiter, cross-flag and cross-listing tokens for every
 * token-issuing listing; a missing volume or bucket on every call that takes one; non-empty
 * volume, bucket and directory deletes; double commits and wrong client ids; completions with
 * bad part lists; duplicate volumes, buckets and snapshots; layout mismatches.
 */
class BadInputMatrixTest {

  private static final String V = "vol1";
  private static final String OBS = "obs1";
  private static final String OBS2 = "obs2";
  private static final String LEG = "leg1";
  private static final String FSO = "fso1";
  private static final String FSO2 = "fso2";
  private static final String MPU_ONLY = "mpu1";
  /** An empty bucket whose only content is an ACTIVE snapshot. */
  private static final String SNAP_ONLY = "snaponly";
  private static final int CAP = 10;
  private static final long BIG = MultipartUploads.MIN_PART_SIZE;

  private static final MutableClock CLOCK = new MutableClock();
  @RegisterExtension
  static final OmStoreExtension omStore =
      OmStoreExtension.withOptions(OmStoreOptions.defaults().withMaxListSize(CAP)
          .withTokenMaxAge(Duration.ofHours(1)).withClock(CLOCK)
          .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private static OmMetadataStore om;

  private static long openClient;
  private static long committedClient;
  private static long openFileClient;
  private static long committedFileClient;
  private static String uploadId;
  private static final Map<String, String> TOKENS = new LinkedHashMap<>();
  private static final Map<String, String> RESPELLABLE = new LinkedHashMap<>();
  private static String foreignToken;

  @BeforeAll
  static void populate() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createVolume("vol2", "bob");
    for (String b : List.of(OBS, OBS2, MPU_ONLY, SNAP_ONLY)) {
      om.createBucket(V, b, BucketLayout.OBJECT_STORE, null, 0);
    }
    om.createBucket(V, LEG, BucketLayout.LEGACY, null, 0);
    om.createBucket(V, FSO, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    om.createBucket(V, FSO2, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    for (String b : List.of(OBS, OBS2, LEG)) {
      for (int i = 0; i < 5; i++) {
        put(om, V, b, "dir/k" + i, i);
        put(om, V, b, "dir/sub" + i + "/x", i);
      }
      put(om, V, b, "top", 1);
      om.openKey(V, b, "open-a", null);
      om.openKey(V, b, "open-b", null);
    }
    openClient = om.openKey(V, OBS, "pending", null).clientId();
    // Its open entry follows "pending", so a page may end with an entry named at another length.
    om.openKey(V, OBS, "pending2", null);
    OpenKeySession done = om.openKey(V, OBS, "committed", null);
    committedClient = done.clientId();
    om.commitKey(V, OBS, "committed", committedClient, 3);
    for (String b : List.of(FSO, FSO2)) {
      putFile(om, V, b, "d/f", 3);
      putFile(om, V, b, "d/e/g", 4);
      putFile(om, V, b, "top", 5);
      om.fso().createDirectory(V, b, "empty");
      om.fso().createFile(V, b, "d/open-a", null);
      om.fso().createFile(V, b, "d/open-b", null);
    }
    openFileClient = om.fso().createFile(V, FSO, "d/pending", null).clientId();
    OpenKeySession file = om.fso().createFile(V, FSO, "d/committed", null);
    committedFileClient = file.clientId();
    om.fso().commitFile(V, FSO, "d/committed", committedFileClient, 2);
    uploadId = om.multipart().initiate(V, OBS, "big", null);
    om.multipart().commitPart(V, OBS, "big", uploadId, 1, BIG, "e1");
    om.multipart().commitPart(V, OBS, "big", uploadId, 2, 100, "e2");
    om.multipart().commitPart(V, OBS, "big", uploadId, 3, BIG, "e3");
    om.multipart().initiate(V, MPU_ONLY, "only", null);
    om.snapshots().create(V, OBS, "snap1");
    om.snapshots().create(V, OBS, "snap2");
    // Between them, and longer: a page may end with a name of another length.
    om.snapshots().create(V, OBS, "snap10");
    om.snapshots().create(V, FSO, "snap1");
    om.snapshots().create(V, SNAP_ONLY, "keep");

    TOKENS.put("listKeys", om.listKeys(V, OBS, "dir/", null, 2, null).nextToken());
    TOKENS.put("listObjectsV2", om.listObjectsV2(ListObjectsV2Request.of(V, OBS)
        .withPrefix("dir/").withDelimiter("/").withMaxKeys(2)).nextContinuationToken());
    TOKENS.put("listStatus", om.fso().listStatus(V, FSO, "", true, null, 2, null).nextToken());
    TOKENS.put("listOpenFiles", om.openFiles().list(V, OBS, 1, null).nextToken());
    TOKENS.put("listSnapshots", om.snapshots().list(V, OBS, "snap", null, 1, null, false)
        .nextToken());
    TOKENS.values().forEach(t -> assertNotNull(t, "every setup listing has a next page"));
    // Tokens of these same requests that can be respelled (a token whose byte count is a
    // multiple of 3 has no other spelling, so the page size is chosen to avoid one).
    RESPELLABLE.put("listKeys", respellable(n -> om.listKeys(V, OBS, "dir/", null, n, null)
        .nextToken()));
    RESPELLABLE.put("listObjectsV2", respellable(n -> om.listObjectsV2(ListObjectsV2Request
        .of(V, OBS).withPrefix("dir/").withDelimiter("/").withMaxKeys(n))
        .nextContinuationToken()));
    RESPELLABLE.put("listStatus", respellable(n -> om.fso().listStatus(V, FSO, "", true, null, n, null)
        .nextToken()));
    RESPELLABLE.put("listOpenFiles", respellable(n -> om.openFiles().list(V, OBS, n, null)
        .nextToken()));
    RESPELLABLE.put("listSnapshots", respellable(n -> om.snapshots().list(V, OBS, "snap", null, n,
        null, false).nextToken()));

    try (OmMetadataStore other = OmMetadataStore.open(omStore.scratch("other"))) {
      other.createVolume(V, "alice");
      other.createBucket(V, OBS, BucketLayout.OBJECT_STORE, null, 0);
      for (int i = 0; i < 5; i++) {
        put(other, V, OBS, "dir/k" + i, i);
      }
      foreignToken = other.listKeys(V, OBS, "dir/", null, 2, null).nextToken();
    }
  }

  // ------------------------------------------------------------------------------------------
  // The dump

  /**
   * Every column family (every table the store has, not only those of its definition), every
   * entry as hex, plus the names of the files under the snapshot root and the counters.
   */
  private static Map<String, List<String>> dump() {
    Map<String, List<String>> out = new LinkedHashMap<>();
    List<String> tables = om.dbStore().listTables();
    for (TableDefinition<?, ?> t : OmDBDefinition.DEFINITION.tables()) {
      assertTrue(tables.contains(t.name()), t.name());
    }
    for (String name : tables) {
      List<String> rows = new ArrayList<>();
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
               om.dbStore().getTable(name).iterator()) {
        while (it.hasNext()) {
          KeyValue<byte[], byte[]> kv = it.next();
          rows.add(HexFormat.of().formatHex(kv.getKey()) + "="
              + HexFormat.of().formatHex(kv.getValue()));
        }
      }
      out.put(name, rows);
    }
    List<String> files = new ArrayList<>();
    Path snapshots = om.dbStore().getPath().resolve(Snapshots.ROOT_DIR);
    try (Stream<Path> walk = Files.walk(snapshots)) {
      walk.forEach(p -> files.add(snapshots.relativize(p).toString()));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    files.sort(null);
    out.put("snapshot files", files);
    out.put("counters", List.of(om.counters().toString()));
    return out;
  }

  // ------------------------------------------------------------------------------------------
  // The table

  /** One row: a call, the code it must get, words its message must contain. */
  private record Row(String name, Code code, List<String> words, Executable call) {
  }

  private final List<Row> rows = new ArrayList<>();

  private void row(String name, Code code, Executable call, String... words) {
    rows.add(new Row(name, code, List.of(words), call));
  }

  @TestFactory
  Stream<DynamicTest> badInputGetsATypedClearErrorAndChangesNothing() {
    bucketNames();
    keyNames();
    fsoPaths();
    pageSizes();
    tokens();
    missingVolumesAndBuckets();
    preconditions();
    multipart();
    duplicatesAndLayouts();
    return rows.stream().map(r -> DynamicTest.dynamicTest(r.name(), () -> check(r)));
  }

  /** The store as the previous row left it (only the rows touch the store after setup). */
  private static Map<String, List<String>> current;

  private static void check(Row r) {
    Map<String, List<String>> before = current != null ? current : dump();
    current = null;
    try {
      OmException e = assertThrows(OmException.class, r.call(), r.name() + " must be rejected");
      assertEquals(r.code(), e.code(), () -> r.name() + ": " + e.getMessage());
      for (String w : r.words()) {
        assertTrue(e.getMessage().contains(w), () -> r.name() + ": the message must say '" + w
            + "': " + e.getMessage());
      }
    } finally {
      current = dump();
    }
    assertEquals(before, current, r.name() + " was rejected but changed the store");
  }

  // ---- S3 bucket naming rules ----

  /** A bad name and the words its rule's message has. */
  private record BadName(String name, String rule) {
  }

  private static final List<BadName> BAD_NAMES = List.of(
      new BadName("ab", "must be 3 to 63 characters long"),
      new BadName("a".repeat(64), "must be 3 to 63 characters long"),
      new BadName("Upper1",
          "may contain only lowercase letters, digits, '.' and '-' (found 'U' at 0)"),
      new BadName("under_score", "(found '_' at 5)"),
      new BadName("sp ace", "(found ' ' at 2)"),
      new BadName("sur\uD800x", "(found '\\ud800' at 3)"),
      new BadName("192.168.1.1", "must not be formatted as an IP address"),
      new BadName("-lead", "must begin and end with a lowercase letter or digit"),
      new BadName("trail-", "must begin and end with a lowercase letter or digit"),
      new BadName(".lead", "must begin and end with a lowercase letter or digit"),
      new BadName("trail.", "must begin and end with a lowercase letter or digit"),
      new BadName("two..dots", "must not contain two adjacent periods"),
      new BadName("dot.-dash", "must not have a period next to a hyphen"),
      new BadName("dash-.dot", "must not have a period next to a hyphen"),
      new BadName("xn--punycode", "must not start with 'xn--'"),
      new BadName("name-s3alias", "must not end with '-s3alias'"));

  private void bucketNames() {
    for (BadName n : BAD_NAMES) {
      String shown = "'" + n.name() + "'";
      row("createBucket " + shown, Code.INVALID_ARGUMENT,
          () -> om.createBucket(V, n.name(), BucketLayout.OBJECT_STORE, null, 0),
          "Bucket name " + shown, n.rule());
      row("createVolume " + shown, Code.INVALID_ARGUMENT, () -> om.createVolume(n.name(), "x"),
          "Volume name " + shown, n.rule());
      row("createSnapshot " + shown, Code.INVALID_ARGUMENT,
          () -> om.snapshots().create(V, OBS, n.name()), "Snapshot name " + shown, n.rule());
    }
    String bad = "Bad_Bucket";
    String words = "Bucket name 'Bad_Bucket'";
    row("listKeys bad bucket", Code.INVALID_ARGUMENT,
        () -> om.listKeys(V, bad, null, null, 5, null), words);
    row("openKey bad bucket", Code.INVALID_ARGUMENT, () -> om.openKey(V, bad, "k", null), words);
    row("createDirectory bad bucket", Code.INVALID_ARGUMENT,
        () -> om.fso().createDirectory(V, bad, "d2"), words);
    row("listStatus bad volume", Code.INVALID_ARGUMENT,
        () -> om.fso().listStatus("v", FSO, "", false, null, 5, null), "Volume name 'v'");
    row("listMultipartUploads bad bucket", Code.INVALID_ARGUMENT,
        () -> om.multipart().list(V, bad, null, null, null, 5), words);
    row("deleteBucket bad bucket", Code.INVALID_ARGUMENT, () -> om.deleteBucket(V, bad), words);
    row("deleteVolume bad volume", Code.INVALID_ARGUMENT, () -> om.deleteVolume("VOL"),
        "Volume name 'VOL'");
    row("createBucket null name", Code.INVALID_ARGUMENT,
        () -> om.createBucket(V, null, BucketLayout.OBJECT_STORE, null, 0),
        "Bucket name is missing");
  }

  // ---- key names ----

  private record BadKey(String label, String key, String words) {
  }

  private static final List<BadKey> BAD_KEYS = List.of(
      new BadKey("empty", "", "Key name is empty"),
      new BadKey("null", null, "Key name is missing"),
      new BadKey("1025 ASCII bytes", "x".repeat(1025),
          "Key name is 1025 UTF-8 bytes; at most 1024 are allowed"),
      new BadKey("1026 bytes of euro signs", "\u20ac".repeat(342),
          "Key name is 1026 UTF-8 bytes; at most 1024 are allowed"),
      new BadKey("lone high surrogate", "lone\uD800x",
          "is not valid UTF-8 (it contains an unpaired surrogate)"),
      new BadKey("lone low surrogate", "\uDC00", "is not valid UTF-8"),
      new BadKey("trailing high surrogate", "end\uD83D", "is not valid UTF-8"));

  private void keyNames() {
    for (BadKey k : BAD_KEYS) {
      String key = k.key();
      String w = k.words();
      String l = " (" + k.label() + " key)";
      row("openKey" + l, Code.INVALID_ARGUMENT, () -> om.openKey(V, OBS, key, null), w);
      row("commitKey" + l, Code.INVALID_ARGUMENT,
          () -> om.commitKey(V, OBS, key, openClient, 1), w);
      row("lookupKey" + l, Code.INVALID_ARGUMENT, () -> om.lookupKey(V, OBS, key), w);
      row("deleteKey" + l, Code.INVALID_ARGUMENT, () -> om.deleteKey(V, OBS, key), w);
      row("renameKey from" + l, Code.INVALID_ARGUMENT,
          () -> om.renameKey(V, OBS, key, "fresh"), w);
      row("renameKey to" + l, Code.INVALID_ARGUMENT, () -> om.renameKey(V, OBS, "top", key), w);
      row("initiateMultipartUpload" + l, Code.INVALID_ARGUMENT,
          () -> om.multipart().initiate(V, OBS, key, null), w);
      row("commitPart" + l, Code.INVALID_ARGUMENT,
          () -> om.multipart().commitPart(V, OBS, key, uploadId, 1, 1, "e"), w);
      row("completeMultipartUpload" + l, Code.INVALID_ARGUMENT,
          () -> om.multipart().complete(V, OBS, key, uploadId,
              List.of(new CompletedPart(1, "e1"))), w);
      row("abortMultipartUpload" + l, Code.INVALID_ARGUMENT,
          () -> om.multipart().abort(V, OBS, key, uploadId), w);
      row("listParts" + l, Code.INVALID_ARGUMENT,
          () -> om.multipart().listParts(V, OBS, key, uploadId, 0, 5), w);
      row("lookupKeyInSnapshot" + l, Code.INVALID_ARGUMENT,
          () -> om.snapshots().lookupKey(V, OBS, "snap1", key), w);
    }
    byte[][] badUtf8 = {{'a', (byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
        {'a', (byte) 0xE2, (byte) 0x82}, {(byte) 0xFF}};
    String[] badUtf8Names = {"an overlong NUL", "an encoded surrogate", "a truncated sequence",
        "byte FF"};
    for (int i = 0; i < badUtf8.length; i++) {
      byte[] bytes = badUtf8[i];
      row("a key name given as bytes with " + badUtf8Names[i], Code.INVALID_ARGUMENT,
          () -> OmValidation.decodeKeyName(bytes),
          "Key name is not well-formed UTF-8 (" + bytes.length + " bytes)");
      row("a path given as bytes with " + badUtf8Names[i], Code.INVALID_ARGUMENT,
          () -> OmValidation.decodePath(bytes),
          "Path is not well-formed UTF-8 (" + bytes.length + " bytes)");
    }
    String longText = "p".repeat(1025);
    row("listKeys prefix over 1024 bytes", Code.INVALID_ARGUMENT,
        () -> om.listKeys(V, OBS, longText, null, 5, null), "Prefix is 1025 UTF-8 bytes");
    row("listKeys start-after with a surrogate", Code.INVALID_ARGUMENT,
        () -> om.listKeys(V, OBS, null, "a\uDFFF", 5, null), "Start-after 'a\uDFFF' is not valid");
    row("listObjectsV2 delimiter with a surrogate", Code.INVALID_ARGUMENT,
        () -> om.listObjectsV2(ListObjectsV2Request.of(V, OBS).withDelimiter("\uD800")),
        "Delimiter", "unpaired surrogate");
    row("listObjectsV1 marker over 1024 bytes", Code.INVALID_ARGUMENT,
        () -> om.listObjectsV1(ListObjectsV1Request.of(V, OBS).withMarker(longText)),
        "Marker is 1025 UTF-8 bytes");
    row("listMultipartUploads key marker with a surrogate", Code.INVALID_ARGUMENT,
        () -> om.multipart().list(V, OBS, null, "k\uD800", null, 5), "Key marker");
    row("openKey owner with a surrogate", Code.INVALID_ARGUMENT,
        () -> om.openKey(V, OBS, "k", "own\uD800"), "Owner");
  }

  // ---- FSO paths ----

  private record BadPath(String label, String path, String words) {
  }

  private static final List<BadPath> BAD_PATHS = List.of(
      new BadPath("dot-dot inside", "a/../b", "has a '..' component; paths must be normalized"),
      new BadPath("dot-dot alone", "..", "has a '..' component"),
      new BadPath("dot", "a/./b", "has a '.' component"),
      new BadPath("double slash", "a//b", "has an empty component ('//')"),
      new BadPath("only slashes", "//", "has an empty component"),
      new BadPath("trailing double slash", "a/b//", "has an empty component ('//')"),
      new BadPath("over 64 KiB", "d/" + "x".repeat(OmValidation.MAX_STORED_KEY_BYTES - 1),
          "is " + (OmValidation.MAX_STORED_KEY_BYTES + 1) + " UTF-8 bytes"),
      new BadPath("unpaired surrogate", "d/\uD800", "is not valid UTF-8"));

  private void fsoPaths() {
    for (BadPath p : BAD_PATHS) {
      String path = p.path();
      String w = p.words();
      String l = " (" + p.label() + ")";
      row("createDirectory" + l, Code.INVALID_ARGUMENT, () -> om.fso().createDirectory(V, FSO, path),
          "Path", w);
      row("createFile" + l, Code.INVALID_ARGUMENT, () -> om.fso().createFile(V, FSO, path, null),
          "Path", w);
      row("commitFile" + l, Code.INVALID_ARGUMENT,
          () -> om.fso().commitFile(V, FSO, path, openFileClient, 1), "Path", w);
      row("lookupFile" + l, Code.INVALID_ARGUMENT, () -> om.fso().lookupFile(V, FSO, path), "Path", w);
      row("getFileStatus" + l, Code.INVALID_ARGUMENT, () -> om.fso().getFileStatus(V, FSO, path),
          "Path", w);
      row("deleteFile" + l, Code.INVALID_ARGUMENT, () -> om.fso().deleteFile(V, FSO, path), "Path", w);
      row("deleteDirectory" + l, Code.INVALID_ARGUMENT,
          () -> om.fso().deleteDirectory(V, FSO, path, true), "Path", w);
      row("rename source" + l, Code.INVALID_ARGUMENT, () -> om.fso().rename(V, FSO, path, "x"),
          "Source path", w);
      row("rename destination" + l, Code.INVALID_ARGUMENT, () -> om.fso().rename(V, FSO, "top", path),
          "Destination path", w);
      row("listStatus path" + l, Code.INVALID_ARGUMENT,
          () -> om.fso().listStatus(V, FSO, path, false, null, 5, null), "Path", w);
      row("listStatus start key" + l, Code.INVALID_ARGUMENT,
          () -> om.fso().listStatus(V, FSO, "", true, path, 5, null), "Start key", w);
    }
    // A path that is created is limited to 1024 bytes; one that may exist (grown by renames of
    // its ancestors) only to 64 KiB, so those calls reach the store and answer NOT_FOUND.
    String newPath = "d/" + "x".repeat(1023);
    String words = "is 1025 UTF-8 bytes; at most 1024 are allowed";
    row("createDirectory (new path over 1024 bytes)", Code.INVALID_ARGUMENT,
        () -> om.fso().createDirectory(V, FSO, newPath), "Path", words);
    row("createFile (new path over 1024 bytes)", Code.INVALID_ARGUMENT,
        () -> om.fso().createFile(V, FSO, newPath, null), "Path", words);
    row("rename destination (new path over 1024 bytes)", Code.INVALID_ARGUMENT,
        () -> om.fso().rename(V, FSO, "top", newPath), "Destination path", words);
    row("getFileStatus (existing path over 1024 bytes)", Code.NOT_FOUND,
        () -> om.fso().getFileStatus(V, FSO, newPath), "does not exist");
    row("listStatus start key outside the path", Code.INVALID_ARGUMENT,
        () -> om.fso().listStatus(V, FSO, "d", true, "top", 5, null),
        "Start key 'top' is not inside the listed path 'd'");
    row("createDirectory at the root", Code.INVALID_ARGUMENT,
        () -> om.fso().createDirectory(V, FSO, "/"), "Cannot create a directory at the bucket root");
    row("deleteDirectory of the root", Code.INVALID_ARGUMENT,
        () -> om.fso().deleteDirectory(V, FSO, "", true), "Cannot delete the bucket root");
    row("rename the root", Code.INVALID_ARGUMENT, () -> om.fso().rename(V, FSO, "/", "x"),
        "Cannot rename the bucket root");
    row("rename a directory into its own subtree", Code.INVALID_ARGUMENT,
        () -> om.fso().rename(V, FSO, "d", "d/e/inside"), "cannot move into its own subtree");
  }

  // ---- page sizes and purge limits ----

  private void pageSizes() {
    // 0 is a valid page size (an empty page, see ZeroPageSizeTest); only negative sizes and sizes
    // above the cap are bad (the S3 listings clamp above the cap).
    String negative = " must not be negative (0 asks for an empty page): ";
    for (int bad : new int[] {-1, Integer.MIN_VALUE, CAP + 1, Integer.MAX_VALUE}) {
      String why = bad < 0 ? negative + bad : bad + " exceeds the page size cap " + CAP;
      row("listKeys maxKeys " + bad, Code.INVALID_ARGUMENT,
          () -> om.listKeys(V, OBS, null, null, bad, null), "maxKeys", why);
      row("listVolumes maxResults " + bad, Code.INVALID_ARGUMENT,
          () -> om.listVolumes(null, null, bad), "maxResults", why);
      row("listBuckets maxResults " + bad, Code.INVALID_ARGUMENT,
          () -> om.listBuckets(V, null, null, bad), "maxResults", why);
      row("listStatus numEntries " + bad, Code.INVALID_ARGUMENT,
          () -> om.fso().listStatus(V, FSO, "", true, null, bad, null), "numEntries", why);
      row("listOpenFiles maxKeys " + bad, Code.INVALID_ARGUMENT,
          () -> om.openFiles().list(V, OBS, bad, null), "maxKeys", why);
      row("listSnapshots maxEntries " + bad, Code.INVALID_ARGUMENT,
          () -> om.snapshots().list(V, OBS, null, null, bad), "maxEntries", why);
      row("listKeysInSnapshot maxKeys " + bad, Code.INVALID_ARGUMENT,
          () -> om.snapshots().listKeys(V, OBS, "snap1", null, null, bad), "maxKeys", why);
    }
    for (int bad : new int[] {-1, Integer.MIN_VALUE}) {
      row("listObjectsV2 max-keys " + bad, Code.INVALID_ARGUMENT,
          () -> om.listObjectsV2(ListObjectsV2Request.of(V, OBS).withMaxKeys(bad)),
          "max-keys" + negative + bad);
      row("listObjectsV1 max-keys " + bad, Code.INVALID_ARGUMENT,
          () -> om.listObjectsV1(ListObjectsV1Request.of(V, OBS).withMaxKeys(bad)),
          "max-keys" + negative + bad);
      row("listMultipartUploads max-uploads " + bad, Code.INVALID_ARGUMENT,
          () -> om.multipart().list(V, OBS, null, null, null, bad),
          "max-uploads" + negative + bad);
      row("listParts max-parts " + bad, Code.INVALID_ARGUMENT,
          () -> om.multipart().listParts(V, OBS, "big", uploadId, 0, bad), "max-parts" + negative + bad);
    }
    for (int bad : new int[] {0, -1, Integer.MIN_VALUE}) {
      row("purgeDeletedDirectories " + bad, Code.INVALID_ARGUMENT,
          () -> om.fso().purgeDeletedDirectories(bad), "maxEntries must be at least 1: " + bad);
      row("lifecycleScanStep maxExamined " + bad, Code.INVALID_ARGUMENT,
          () -> om.lifecycle().step("scan", V, OBS, null, k -> true, bad),
          "maxExamined must be at least 1: " + bad);
    }
    for (int bad : new int[] {0, -1, OmPurges.MAX_LIMIT + 1}) {
      String why = "A purge limit must be 1 to " + OmPurges.MAX_LIMIT + ": " + bad;
      row("purgeDeletedKeys " + bad, Code.INVALID_ARGUMENT,
          () -> om.purges().purgeDeletedKeys(bad), why);
      row("expireOpenKeys limit " + bad, Code.INVALID_ARGUMENT,
          () -> om.purges().expireOpenKeys(Duration.ZERO, bad), why);
      row("expireOpenFiles limit " + bad, Code.INVALID_ARGUMENT,
          () -> om.purges().expireOpenFiles(Duration.ZERO, bad), why);
      row("abortExpiredUploads limit " + bad, Code.INVALID_ARGUMENT,
          () -> om.purges().abortExpiredUploads(Duration.ZERO, bad), why);
    }
    for (Duration bad : new Duration[] {null, Duration.ofMillis(-1)}) {
      String why = "An expiry threshold must be zero or positive: " + bad;
      row("expireOpenKeys threshold " + bad, Code.INVALID_ARGUMENT,
          () -> om.purges().expireOpenKeys(bad, 10), why);
      row("expireOpenFiles threshold " + bad, Code.INVALID_ARGUMENT,
          () -> om.purges().expireOpenFiles(bad, 10), why);
      row("abortExpiredUploads threshold " + bad, Code.INVALID_ARGUMENT,
          () -> om.purges().abortExpiredUploads(bad, 10), why);
    }
    row("listParts marker -1", Code.INVALID_ARGUMENT,
        () -> om.multipart().listParts(V, OBS, "big", uploadId, -1, 5),
        "Part number marker must be 0 (from the first part) to 10000: -1");
  }

  // ---- continuation tokens ----

  /** A token-issuing listing: its call with a token, and the same request elsewhere. */
  private record TokenListing(String name, Function<String, Object> call,
      Map<String, Function<String, Object>> elsewhere) {
  }

  private static List<TokenListing> tokenListings() {
    List<TokenListing> out = new ArrayList<>();
    out.add(new TokenListing("listKeys", t -> om.listKeys(V, OBS, "dir/", null, 2, t), Map.of(
        "another bucket", t -> om.listKeys(V, OBS2, "dir/", null, 2, t),
        "a LEGACY bucket", t -> om.listKeys(V, LEG, "dir/", null, 2, t),
        "another prefix", t -> om.listKeys(V, OBS, "dir/k", null, 2, t),
        "no prefix", t -> om.listKeys(V, OBS, null, null, 2, t),
        "another listing (ListObjectsV2)", t -> om.listObjectsV2(ListObjectsV2Request
            .of(V, OBS).withPrefix("dir/").withMaxKeys(2).withContinuationToken(t)))));
    Function<ListObjectsV2Request, ListObjectsV2Request> v2 = r -> r.withMaxKeys(2);
    out.add(new TokenListing("listObjectsV2", t -> om.listObjectsV2(v2.apply(
        ListObjectsV2Request.of(V, OBS).withPrefix("dir/").withDelimiter("/")
            .withContinuationToken(t))), Map.of(
        "another bucket", t -> om.listObjectsV2(v2.apply(ListObjectsV2Request.of(V, OBS2)
            .withPrefix("dir/").withDelimiter("/").withContinuationToken(t))),
        "another prefix", t -> om.listObjectsV2(v2.apply(ListObjectsV2Request.of(V, OBS)
            .withPrefix("dir/s").withDelimiter("/").withContinuationToken(t))),
        "no delimiter", t -> om.listObjectsV2(v2.apply(ListObjectsV2Request.of(V, OBS)
            .withPrefix("dir/").withContinuationToken(t))),
        "another delimiter", t -> om.listObjectsV2(v2.apply(ListObjectsV2Request.of(V, OBS)
            .withPrefix("dir/").withDelimiter("k").withContinuationToken(t))),
        "another listing (listKeys)", t -> om.listKeys(V, OBS, "dir/", null, 2, t))));
    out.add(new TokenListing("listStatus", t -> om.fso().listStatus(V, FSO, "", true, null, 2, t),
        Map.of(
            "another bucket", t -> om.fso().listStatus(V, FSO2, "", true, null, 2, t),
            "another path", t -> om.fso().listStatus(V, FSO, "d", true, null, 2, t),
            "non-recursive", t -> om.fso().listStatus(V, FSO, "", false, null, 2, t))));
    out.add(new TokenListing("listOpenFiles", t -> om.openFiles().list(V, OBS, 1, t), Map.of(
        "another bucket", t -> om.openFiles().list(V, OBS2, 1, t),
        "an FSO bucket", t -> om.openFiles().list(V, FSO, 1, t),
        "another listing (listKeys)", t -> om.listKeys(V, OBS, null, null, 1, t))));
    out.add(new TokenListing("listSnapshots",
        t -> om.snapshots().list(V, OBS, "snap", null, 1, t, false), Map.of(
            "another bucket", t -> om.snapshots().list(V, FSO, "snap", null, 1, t, false),
            "another prefix", t -> om.snapshots().list(V, OBS, "snap1", null, 1, t, false),
            "no prefix", t -> om.snapshots().list(V, OBS, null, null, 1, t, false),
            "with deleted snapshots", t -> om.snapshots().list(V, OBS, "snap", null, 1, t, true))));
    return out;
  }

  private static String flipBit(String token, int byteIndexFromEnd) {
    byte[] raw = Base64.getUrlDecoder().decode(token);
    int i = byteIndexFromEnd < 0 ? raw.length / 3 : raw.length - 1 - byteIndexFromEnd;
    raw[i] ^= 0x04;
    return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
  }

  /** The first token, by page size, whose bytes are not a multiple of 3 (it can be respelled). */
  private static String respellable(IntFunction<String> issue) {
    for (int n = 1; n < CAP; n++) {
      String token = issue.apply(n);
      if (token != null && TokenSpellings.of(token).size() >= 4) {
        return token;
      }
    }
    throw new AssertionError("no page size issues a token that has other spellings");
  }

  private static String cut(String token, int keepBytes) {
    byte[] raw = Base64.getUrlDecoder().decode(token);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(
        Arrays.copyOf(raw, keepBytes < 0 ? raw.length + keepBytes : keepBytes));
  }

  private void tokens() {
    String invalid = "The continuation token is invalid: ";
    String altered = invalid + "it was not issued by this store or was altered";
    String other = invalid + "it belongs to another listing";
    for (TokenListing l : tokenListings()) {
      String token = TOKENS.get(l.name());
      String n = l.name() + " token ";
      row(n + "with a bit flipped in its body", Code.INVALID_ARGUMENT,
          () -> l.call().apply(flipBit(token, -1)), altered);
      row(n + "with a bit flipped in its MAC", Code.INVALID_ARGUMENT,
          () -> l.call().apply(flipBit(token, 3)), altered);
      row(n + "missing its last byte", Code.INVALID_ARGUMENT,
          () -> l.call().apply(cut(token, -1)), altered);
      row(n + "cut to 20 bytes", Code.INVALID_ARGUMENT, () -> l.call().apply(cut(token, 20)),
          invalid + "it is truncated");
      row(n + "missing its last character", Code.INVALID_ARGUMENT,
          () -> l.call().apply(token.substring(0, token.length() - 1)), invalid);
      // The same bytes spelled otherwise: a lenient decoder reads them as the issued token.
      TokenSpellings.of(RESPELLABLE.get(l.name())).forEach((how, respelled) -> row(n + how,
          Code.INVALID_ARGUMENT, () -> l.call().apply(respelled), invalid + "it was altered",
          "not spelled as this store issues tokens"));
      row(n + "that is not base64url", Code.INVALID_ARGUMENT, () -> l.call().apply("!!!~"),
          invalid + "it is not base64url");
      row(n + "longer than the cap", Code.INVALID_ARGUMENT,
          () -> l.call().apply("A".repeat(ListTokens.MAX_TOKEN_CHARS + 1)),
          invalid + "it is too long");
      row(n + "issued by another store", Code.INVALID_ARGUMENT,
          () -> l.call().apply(foreignToken), altered);
      row(n + "older than the token lifetime", Code.INVALID_ARGUMENT, () -> {
        CLOCK.advance(Duration.ofHours(2).toMillis());
        try {
          l.call().apply(token);
        } finally {
          CLOCK.advance(-Duration.ofHours(2).toMillis());
        }
      }, invalid + "it expired");
      l.elsewhere().forEach((where, call) -> row(n + "replayed against " + where,
          Code.INVALID_ARGUMENT, () -> call.apply(token), other));
    }
    row("listStatus token of another path in a subtree listing", Code.INVALID_ARGUMENT,
        () -> om.fso().listStatus(V, FSO, "d/e", true, null, 2, TOKENS.get("listStatus")), other);
  }

  // ---- missing volumes and buckets ----

  private void missingVolumesAndBuckets() {
    String nb = "nobucket";
    String bucketWords = "Bucket 'nobucket' does not exist in volume 'vol1'";
    Map<String, Executable> calls = new LinkedHashMap<>();
    calls.put("getBucketInfo", () -> om.getBucketInfo(V, nb));
    calls.put("setBucketProperties", () -> om.setBucketProperties(V, nb, "x", 1L, 1L));
    calls.put("deleteBucket", () -> om.deleteBucket(V, nb));
    calls.put("bucketCounters", () -> om.bucketCounters(V, nb));
    calls.put("openKey", () -> om.openKey(V, nb, "k", null));
    calls.put("commitKey", () -> om.commitKey(V, nb, "k", openClient, 1));
    calls.put("lookupKey", () -> om.lookupKey(V, nb, "k"));
    calls.put("deleteKey", () -> om.deleteKey(V, nb, "k"));
    calls.put("renameKey", () -> om.renameKey(V, nb, "k", "l"));
    calls.put("listKeys", () -> om.listKeys(V, nb, null, null, 5, null));
    calls.put("listObjectsV2", () -> om.listObjectsV2(ListObjectsV2Request.of(V, nb)));
    calls.put("listObjectsV1", () -> om.listObjectsV1(ListObjectsV1Request.of(V, nb)));
    calls.put("initiateMultipartUpload", () -> om.multipart().initiate(V, nb, "k", null));
    calls.put("commitPart", () -> om.multipart().commitPart(V, nb, "big", uploadId, 1, 1, "e"));
    calls.put("completeMultipartUpload", () -> om.multipart().complete(V, nb, "big",
        uploadId, List.of(new CompletedPart(1, "e1"))));
    calls.put("abortMultipartUpload", () -> om.multipart().abort(V, nb, "big", uploadId));
    calls.put("listParts", () -> om.multipart().listParts(V, nb, "big", uploadId, 0, 5));
    calls.put("listMultipartUploads", () -> om.multipart().list(V, nb, null, null, null, 5));
    calls.put("listOpenFiles", () -> om.openFiles().list(V, nb, 5, null));
    calls.put("createDirectory", () -> om.fso().createDirectory(V, nb, "d"));
    calls.put("createFile", () -> om.fso().createFile(V, nb, "f", null));
    calls.put("commitFile", () -> om.fso().commitFile(V, nb, "f", openFileClient, 1));
    calls.put("lookupFile", () -> om.fso().lookupFile(V, nb, "f"));
    calls.put("getFileStatus", () -> om.fso().getFileStatus(V, nb, "f"));
    calls.put("deleteFile", () -> om.fso().deleteFile(V, nb, "f"));
    calls.put("deleteDirectory", () -> om.fso().deleteDirectory(V, nb, "d", true));
    calls.put("rename", () -> om.fso().rename(V, nb, "f", "g"));
    calls.put("listStatus", () -> om.fso().listStatus(V, nb, "", false, null, 5, null));
    calls.put("createSnapshot", () -> om.snapshots().create(V, nb, "snap9"));
    calls.put("deleteSnapshot", () -> om.snapshots().delete(V, nb, "snap1"));
    calls.put("getSnapshotInfo", () -> om.snapshots().info(V, nb, "snap1"));
    calls.put("listSnapshots", () -> om.snapshots().list(V, nb, null, null, 5));
    calls.put("lookupKeyInSnapshot", () -> om.snapshots().lookupKey(V, nb, "snap1", "top"));
    calls.put("listKeysInSnapshot", () -> om.snapshots().listKeys(V, nb, "snap1", null, null, 5));
    calls.forEach((name, call) -> row(name + " in a missing bucket", Code.NOT_FOUND, call,
        bucketWords));

    String volumeWords = "Volume 'novol' does not exist";
    Map<String, Executable> volumeCalls = new LinkedHashMap<>();
    volumeCalls.put("getVolumeInfo", () -> om.getVolumeInfo("novol"));
    volumeCalls.put("setVolumeProperties", () -> om.setVolumeProperties("novol", "x", 1L, 1L));
    volumeCalls.put("deleteVolume", () -> om.deleteVolume("novol"));
    volumeCalls.put("listBuckets", () -> om.listBuckets("novol", null, null, 5));
    volumeCalls.put("createBucket", () -> om.createBucket("novol", "newbucket",
        BucketLayout.OBJECT_STORE, null, 0));
    volumeCalls.put("getBucketInfo", () -> om.getBucketInfo("novol", OBS));
    volumeCalls.put("openKey", () -> om.openKey("novol", OBS, "k", null));
    volumeCalls.put("listKeys", () -> om.listKeys("novol", OBS, null, null, 5, null));
    volumeCalls.put("listStatus", () -> om.fso().listStatus("novol", FSO, "", true, null, 5, null));
    volumeCalls.put("createDirectory", () -> om.fso().createDirectory("novol", FSO, "d"));
    volumeCalls.put("listOpenFiles", () -> om.openFiles().list("novol", OBS, 5, null));
    volumeCalls.put("createSnapshot", () -> om.snapshots().create("novol", OBS, "snap9"));
    volumeCalls.put("initiateMultipartUpload",
        () -> om.multipart().initiate("novol", OBS, "k", null));
    volumeCalls.forEach((name, call) -> row(name + " in a missing volume", Code.NOT_FOUND, call,
        volumeWords));
  }

  // ---- preconditions: non-empty deletes, commits ----

  private void preconditions() {
    row("deleteVolume of a volume with buckets", Code.FAILED_PRECONDITION,
        () -> om.deleteVolume(V), "Volume 'vol1' is not empty: delete its buckets first");
    row("deleteBucket of a bucket with keys", Code.FAILED_PRECONDITION,
        () -> om.deleteBucket(V, OBS), "Bucket 'vol1/obs1' is not empty");
    row("deleteBucket of a LEGACY bucket with keys", Code.FAILED_PRECONDITION,
        () -> om.deleteBucket(V, LEG), "Bucket 'vol1/leg1' is not empty");
    row("deleteBucket of an FSO bucket with files", Code.FAILED_PRECONDITION,
        () -> om.deleteBucket(V, FSO), "Bucket 'vol1/fso1' is not empty");
    row("deleteBucket of a bucket with an upload in progress", Code.FAILED_PRECONDITION,
        () -> om.deleteBucket(V, MPU_ONLY), "has multipart uploads in progress");
    // As Ozone (HDDS-6984): a bucket with snapshots cannot be deleted. Its snapshot rows are
    // keyed by bucket name, so otherwise a re-created bucket of that name would inherit them.
    row("deleteBucket of a bucket with an ACTIVE snapshot", Code.FAILED_PRECONDITION,
        () -> om.deleteBucket(V, SNAP_ONLY), "Bucket 'vol1/snaponly'", "snapshot");
    row("deleteDirectory of a non-empty directory, not recursive", Code.FAILED_PRECONDITION,
        () -> om.fso().deleteDirectory(V, FSO, "d", false), "Directory 'd' is not empty");
    row("deleteDirectory of a file", Code.FAILED_PRECONDITION,
        () -> om.fso().deleteDirectory(V, FSO, "top", true), "'top' is a file, not a directory");
    row("deleteFile of a directory", Code.FAILED_PRECONDITION,
        () -> om.fso().deleteFile(V, FSO, "d"), "'d' is a directory; use deleteDirectory");
    row("lookupFile of a directory", Code.FAILED_PRECONDITION,
        () -> om.fso().lookupFile(V, FSO, "d/e"), "'d/e' is a directory, not a file");
    row("createDirectory where a file is", Code.ALREADY_EXISTS,
        () -> om.fso().createDirectory(V, FSO, "top"), "A file exists at 'top'");
    row("createDirectory below a file", Code.FAILED_PRECONDITION,
        () -> om.fso().createDirectory(V, FSO, "top/sub"), "'top' is a file");
    row("createFile where a directory is", Code.ALREADY_EXISTS,
        () -> om.fso().createFile(V, FSO, "d/e", null), "A directory exists at 'd/e'");
    row("createFile below a file", Code.FAILED_PRECONDITION,
        () -> om.fso().createFile(V, FSO, "d/f/g", null), "'d/f' is a file");
    row("rename onto an existing path", Code.ALREADY_EXISTS,
        () -> om.fso().rename(V, FSO, "top", "d"), "the destination exists");
    row("rename of a missing path", Code.NOT_FOUND, () -> om.fso().rename(V, FSO, "nope", "x"),
        "'nope' does not exist");
    row("renameKey onto an existing key", Code.ALREADY_EXISTS,
        () -> om.renameKey(V, OBS, "top", "dir/k0"), "the destination exists");
    row("renameKey of a missing key", Code.NOT_FOUND,
        () -> om.renameKey(V, OBS, "nope", "fresh"), "the key does not exist");
    row("deleteKey of a missing key", Code.NOT_FOUND, () -> om.deleteKey(V, OBS, "nope"),
        "Key 'nope' does not exist in 'vol1/obs1'");

    row("commitKey twice", Code.NOT_FOUND,
        () -> om.commitKey(V, OBS, "committed", committedClient, 1),
        "No open key 'committed'", "client id " + committedClient, "already committed");
    row("commitKey with a wrong client id", Code.FAILED_PRECONDITION,
        () -> om.commitKey(V, OBS, "pending", openClient + 1000, 1),
        "Key 'pending'", "open under another client id", "not " + (openClient + 1000));
    row("commitKey of another key's session", Code.NOT_FOUND,
        () -> om.commitKey(V, OBS, "top", openClient, 1), "No open key 'top'");
    row("commitKey in another bucket", Code.NOT_FOUND,
        () -> om.commitKey(V, OBS2, "pending", openClient, 1), "No open key 'pending'");
    row("commitKey with a negative size", Code.INVALID_ARGUMENT,
        () -> om.commitKey(V, OBS, "pending", openClient, -1),
        "Data size must not be negative: -1");
    row("commitFile twice", Code.NOT_FOUND,
        () -> om.fso().commitFile(V, FSO, "d/committed", committedFileClient, 1),
        "No open file 'd/committed'", "client id " + committedFileClient);
    row("commitFile with a wrong client id", Code.FAILED_PRECONDITION,
        () -> om.fso().commitFile(V, FSO, "d/pending", openFileClient + 1000, 1),
        "File 'd/pending'", "open under another client id", "not " + (openFileClient + 1000));
    row("commitFile in another bucket", Code.NOT_FOUND,
        () -> om.fso().commitFile(V, FSO2, "d/pending", openFileClient, 1), "No open file");
    row("commitFile with a negative size", Code.INVALID_ARGUMENT,
        () -> om.fso().commitFile(V, FSO, "d/pending", openFileClient, -5),
        "Data size must not be negative: -5");
    row("commitFile below a missing directory", Code.NOT_FOUND,
        () -> om.fso().commitFile(V, FSO, "nodir/pending", openFileClient, 1),
        "directory 'nodir' does not exist");
  }

  // ---- multipart uploads ----

  private static List<CompletedPart> parts(Object... numberEtag) {
    List<CompletedPart> out = new ArrayList<>();
    for (int i = 0; i < numberEtag.length; i += 2) {
      out.add(new CompletedPart((Integer) numberEtag[i], (String) numberEtag[i + 1]));
    }
    return out;
  }

  private void multipart() {
    Map<String, Object[]> bad = new LinkedHashMap<>();
    bad.put("an empty part list", new Object[] {List.of(),
        "A multipart upload is completed with at least one part"});
    bad.put("no part list", new Object[] {null,
        "A multipart upload is completed with at least one part"});
    bad.put("parts out of order", new Object[] {parts(3, "e3", 1, "e1"),
        "strictly ascending part number order: 1 follows 3 (S3 InvalidPartOrder)"});
    bad.put("a duplicate part", new Object[] {parts(1, "e1", 1, "e1"),
        "strictly ascending part number order: 1 follows 1"});
    bad.put("a part never uploaded", new Object[] {parts(1, "e1", 4, "e4"),
        "Part 4 of upload '" + uploadId + "' was never uploaded (S3 InvalidPart)"});
    bad.put("a wrong ETag", new Object[] {parts(1, "e1", 3, "wrong"),
        "Part 3 of upload '" + uploadId + "' has ETag 'e3', not 'wrong' (S3 InvalidPart)"});
    bad.put("a small part that is not the last", new Object[] {parts(1, "e1", 2, "e2", 3, "e3"),
        "Part 2 of upload '" + uploadId + "' is 100 bytes", "(S3 EntityTooSmall)"});
    bad.put("part number 0", new Object[] {parts(0, "e1"), "Part number must be 1 to 10000: 0"});
    bad.put("part number 10001", new Object[] {parts(10_001, "e1"),
        "Part number must be 1 to 10000: 10001"});
    bad.put("an empty ETag", new Object[] {parts(1, ""), "Part ETag is missing"});
    bad.put("a null part", new Object[] {Arrays.asList((CompletedPart) null),
        "A completed part is missing (null)"});
    bad.forEach((what, spec) -> {
      @SuppressWarnings("unchecked")
      List<CompletedPart> list = (List<CompletedPart>) spec[0];
      String[] words = Arrays.copyOfRange(spec, 1, spec.length, String[].class);
      row("completeMultipartUpload with " + what, Code.INVALID_ARGUMENT,
          () -> om.multipart().complete(V, OBS, "big", uploadId, list), words);
    });
    String missing = OmKeys.id(999_999);
    row("completeMultipartUpload of an unknown upload", Code.NOT_FOUND,
        () -> om.multipart().complete(V, OBS, "big", missing, parts(1, "e1")),
        "No multipart upload '" + missing + "' of key 'big' in 'vol1/obs1'");
    row("completeMultipartUpload under another key", Code.NOT_FOUND,
        () -> om.multipart().complete(V, OBS, "other", uploadId, parts(1, "e1")),
        "No multipart upload '" + uploadId + "' of key 'other'");
    row("completeMultipartUpload in another bucket", Code.NOT_FOUND,
        () -> om.multipart().complete(V, OBS2, "big", uploadId, parts(1, "e1")),
        "No multipart upload");
    row("abortMultipartUpload of an unknown upload", Code.NOT_FOUND,
        () -> om.multipart().abort(V, OBS, "big", missing), "No multipart upload");
    row("commitPart to an unknown upload", Code.NOT_FOUND,
        () -> om.multipart().commitPart(V, OBS, "big", missing, 1, 1, "e"), "No multipart upload");
    row("listParts of an unknown upload", Code.NOT_FOUND,
        () -> om.multipart().listParts(V, OBS, "big", missing, 0, 5), "No multipart upload");
    for (String malformed : new String[] {"", "xyz", "0000000000000ABC", "123"}) {
      String words = malformed.isEmpty() ? "Upload id is missing"
          : "'" + malformed + "' is not an upload id";
      row("abortMultipartUpload with upload id '" + malformed + "'", Code.INVALID_ARGUMENT,
          () -> om.multipart().abort(V, OBS, "big", malformed), words);
      row("completeMultipartUpload with upload id '" + malformed + "'", Code.INVALID_ARGUMENT,
          () -> om.multipart().complete(V, OBS, "big", malformed, parts(1, "e1")), words);
    }
    row("listMultipartUploads with a malformed upload-id marker", Code.INVALID_ARGUMENT,
        () -> om.multipart().list(V, OBS, null, "big", "nope", 5),
        "'nope' is not an upload id");
    row("commitPart number 0", Code.INVALID_ARGUMENT,
        () -> om.multipart().commitPart(V, OBS, "big", uploadId, 0, 1, "e"),
        "Part number must be 1 to 10000: 0");
    row("commitPart number 10001", Code.INVALID_ARGUMENT,
        () -> om.multipart().commitPart(V, OBS, "big", uploadId, 10_001, 1, "e"),
        "Part number must be 1 to 10000: 10001");
    row("commitPart with a negative size", Code.INVALID_ARGUMENT,
        () -> om.multipart().commitPart(V, OBS, "big", uploadId, 1, -1, "e"),
        "Part size must not be negative: -1");
    row("commitPart without an ETag", Code.INVALID_ARGUMENT,
        () -> om.multipart().commitPart(V, OBS, "big", uploadId, 1, 1, null), "Part ETag is missing");
  }

  // ---- duplicates and layouts ----

  private void duplicatesAndLayouts() {
    row("createVolume of an existing volume", Code.ALREADY_EXISTS,
        () -> om.createVolume(V, "x"), "Volume 'vol1' already exists");
    row("createBucket of an existing bucket", Code.ALREADY_EXISTS,
        () -> om.createBucket(V, OBS, BucketLayout.LEGACY, null, 0),
        "Bucket 'obs1' already exists in volume 'vol1'");
    row("createSnapshot of an existing snapshot", Code.ALREADY_EXISTS,
        () -> om.snapshots().create(V, OBS, "snap1"), "Snapshot 'snap1' already exists in 'vol1/obs1'");
    row("createSnapshot of an existing snapshot of an FSO bucket", Code.ALREADY_EXISTS,
        () -> om.snapshots().create(V, FSO, "snap1"), "Snapshot 'snap1' already exists in 'vol1/fso1'");
    row("deleteSnapshot of a missing snapshot", Code.NOT_FOUND,
        () -> om.snapshots().delete(V, OBS, "nosnap"),
        "Snapshot 'nosnap' does not exist in 'vol1/obs1'");
    row("deleteSnapshot of a snapshot of another bucket", Code.NOT_FOUND,
        () -> om.snapshots().delete(V, OBS2, "snap1"),
        "Snapshot 'snap1' does not exist in 'vol1/obs2'");
    row("lookupKeyInSnapshot of a missing snapshot", Code.NOT_FOUND,
        () -> om.snapshots().lookupKey(V, OBS, "nosnap", "top"), "Snapshot 'nosnap' does not exist");
    row("createBucket without a layout", Code.INVALID_ARGUMENT,
        () -> om.createBucket(V, "newbucket", null, null, 0),
        "Bucket layout must be OBJECT_STORE, LEGACY or FILE_SYSTEM_OPTIMIZED, not null");
    row("createBucket with an unspecified layout", Code.INVALID_ARGUMENT,
        () -> om.createBucket(V, "newbucket", BucketLayout.BUCKET_LAYOUT_UNSPECIFIED, null, 0),
        "not BUCKET_LAYOUT_UNSPECIFIED");
    row("createBucket with a negative quota", Code.INVALID_ARGUMENT,
        () -> om.createBucket(V, "newbucket", BucketLayout.OBJECT_STORE, null, -1),
        "Bucket quota must not be negative: -1");
    row("setVolumeProperties with a negative quota", Code.INVALID_ARGUMENT,
        () -> om.setVolumeProperties(V, null, -2L, null), "Quota must not be negative", "-2");
    row("setBucketProperties with a negative namespace quota", Code.INVALID_ARGUMENT,
        () -> om.setBucketProperties(V, OBS, null, null, -3L), "Quota must not be negative",
        "-3");
    String fsoOp = "use the file-system operations";
    row("openKey in an FSO bucket", Code.UNIMPLEMENTED, () -> om.openKey(V, FSO, "k", null),
        "'vol1/fso1' is FILE_SYSTEM_OPTIMIZED", fsoOp);
    row("listKeys of an FSO bucket", Code.UNIMPLEMENTED,
        () -> om.listKeys(V, FSO, null, null, 5, null), fsoOp);
    row("listObjectsV2 of an FSO bucket", Code.UNIMPLEMENTED,
        () -> om.listObjectsV2(ListObjectsV2Request.of(V, FSO)), fsoOp);
    row("listObjectsV1 of an FSO bucket", Code.UNIMPLEMENTED,
        () -> om.listObjectsV1(ListObjectsV1Request.of(V, FSO)), fsoOp);
    row("initiateMultipartUpload in an FSO bucket", Code.UNIMPLEMENTED,
        () -> om.multipart().initiate(V, FSO, "k", null), fsoOp);
    row("listMultipartUploads of an FSO bucket", Code.UNIMPLEMENTED,
        () -> om.multipart().list(V, FSO, null, null, null, 5), fsoOp);
    String needFso = "file-system operations need a FILE_SYSTEM_OPTIMIZED bucket";
    row("createDirectory in an OBJECT_STORE bucket", Code.UNIMPLEMENTED,
        () -> om.fso().createDirectory(V, OBS, "d"), "'vol1/obs1' is OBJECT_STORE", needFso);
    row("createFile in a LEGACY bucket", Code.UNIMPLEMENTED,
        () -> om.fso().createFile(V, LEG, "f", null), "'vol1/leg1' is LEGACY", needFso);
    row("listStatus of an OBJECT_STORE bucket", Code.UNIMPLEMENTED,
        () -> om.fso().listStatus(V, OBS, "", true, null, 5, null), needFso);
    row("rename in an OBJECT_STORE bucket", Code.UNIMPLEMENTED,
        () -> om.fso().rename(V, OBS, "top", "x"), needFso);
  }
}
