package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.listing.ListPage;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitFileRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateDirectoryRequest;
import io.sediment.proto.om.CreateFileRequest;
import io.sediment.proto.om.CreateFileResponse;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.DeleteDirectoryRequest;
import io.sediment.proto.om.DeleteFileRequest;
import io.sediment.proto.om.FileStatus;
import io.sediment.proto.om.GetFileStatusRequest;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListStatusRequest;
import io.sediment.proto.om.ListStatusResponse;
import io.sediment.proto.om.LookupFileRequest;
import io.sediment.proto.om.RenameRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file-system RPCs of OmService through a real channel: each write and lookup against the
 * facade, ListStatus (children and whole subtrees) paged to the end against the facade and a
 * TreeMap model, and the error statuses of bad paths and preconditions, which change nothing.
 */
class OmGrpcFsoTest {

  private static final String V = "vol";
  private static final String B = "fsb";

  /** Listing order: component by component, each by UTF-8 bytes; a path before its subtree. */
  private static final Comparator<String> LISTING_ORDER = (a, b) -> {
    String[] x = a.split("/");
    String[] y = b.split("/");
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      int c = Arrays.compareUnsigned(x[i].getBytes(StandardCharsets.UTF_8),
          y[i].getBytes(StandardCharsets.UTF_8));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.length, y.length);
  };

  @TempDir Path dir;
  private GrpcFixture f;
  /** Every live path of bucket {@link #B} → whether it is a directory. */
  private final TreeMap<String, Boolean> model = new TreeMap<>(LISTING_ORDER);

  @BeforeEach
  void start() throws Exception {
    f = new GrpcFixture(dir.resolve("om"),
        OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withMaxListSize(100),
        4096);
    f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume(V).setOwner("owner").build());
    f.om.createBucket(CreateBucketRequest.newBuilder().setVolume(V).setBucket(B)
        .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
    f.om.createBucket(CreateBucketRequest.newBuilder().setVolume(V).setBucket("obs")
        .setLayout(BucketLayout.OBJECT_STORE).build());
  }

  @AfterEach
  void stop() {
    f.close();
  }

  // ---- writes and lookups -----------------------------------------------------------------------

  @Test
  void directoriesAndFilesRoundTripLikeTheFacade() {
    FileStatus c = mkdir("/a/b/c/");
    assertEquals("a/b/c", c.getPath(), "paths come back normalized");
    assertTrue(c.getIsDirectory());
    assertEquals("owner", c.getOwner(), "directories belong to the bucket's owner");
    assertEquals(FileSystemRpcs.toProto(f.store.fso().getFileStatus(V, B, "a/b/c")), c);
    assertEquals(c, mkdir("a/b/c"), "mkdir -p of an existing directory changes nothing");
    assertEquals(c, status("a/b/c/"));

    CreateFileResponse open = f.om.createFile(CreateFileRequest.newBuilder().setVolume(V)
        .setBucket(B).setPath("a/b/c/f1").setOwner("alice").build());
    assertTrue(open.getClientId() > 0);
    assertEquals("a/b/c/f1", open.getOpenFile().getKeyName());
    assertEquals(c.getObjectId(), open.getOpenFile().getParentId());
    assertEquals(Status.Code.NOT_FOUND, codeOf(() -> lookup("a/b/c/f1")),
        "an open file is not there until committed");
    KeyInfo committed = f.om.commitFile(CommitFileRequest.newBuilder().setVolume(V).setBucket(B)
        .setPath("a/b/c/f1").setClientId(open.getClientId()).setDataSize(77).build()).getFile();
    assertEquals("a/b/c/f1", committed.getKeyName());
    assertEquals(77, committed.getDataSize());
    assertEquals("alice", committed.getOwner());
    assertEquals(committed, lookup("a/b/c/f1"));
    assertEquals(f.store.fso().lookupFile(V, B, "a/b/c/f1"), committed);
    FileStatus file = status("a/b/c/f1");
    assertFalse(file.getIsDirectory());
    assertEquals(77, file.getSize());

    commitFile("x/y/f2", 5);
    assertTrue(status("x/y").getIsDirectory(), "CreateFile creates missing parents");
    FileStatus root = status("");
    assertTrue(root.getIsDirectory());
    assertEquals("", root.getPath());
    assertEquals(f.store.getBucketInfo(V, B).getObjectId(), root.getObjectId());
    assertEquals(root, status("/"));

    FileStatus moved = f.om.rename(RenameRequest.newBuilder().setVolume(V).setBucket(B)
        .setFromPath("a/b/c/f1").setToPath("a/f1-moved").build()).getStatus();
    assertEquals("a/f1-moved", moved.getPath());
    assertEquals(file.getObjectId(), moved.getObjectId(), "one row moves, keeping its id");
    assertEquals(Status.Code.NOT_FOUND, codeOf(() -> lookup("a/b/c/f1")));
    assertEquals(77, lookup("a/f1-moved").getDataSize());
    FileStatus z = f.om.rename(RenameRequest.newBuilder().setVolume(V).setBucket(B)
        .setFromPath("x").setToPath("z").build()).getStatus();
    assertTrue(z.getIsDirectory());
    assertEquals(5, lookup("z/y/f2").getDataSize(), "a directory's subtree follows it");

    f.om.deleteFile(DeleteFileRequest.newBuilder().setVolume(V).setBucket(B)
        .setPath("a/f1-moved").build());
    assertEquals(Status.Code.NOT_FOUND, codeOf(() -> lookup("a/f1-moved")));
    assertEquals(1L, bucketCounter(OmCounter.DELETED_KEYS));

    f.om.deleteDirectory(DeleteDirectoryRequest.newBuilder().setVolume(V).setBucket(B)
        .setPath("a/b/c").build());
    assertEquals(Status.Code.NOT_FOUND, codeOf(() -> status("a/b/c")), "an empty directory goes");
    f.om.deleteDirectory(DeleteDirectoryRequest.newBuilder().setVolume(V).setBucket(B)
        .setPath("z").setRecursive(true).build());
    assertEquals(Status.Code.NOT_FOUND, codeOf(() -> status("z/y/f2")),
        "a recursively deleted subtree vanishes at once");
    assertEquals(1L, bucketCounter(OmCounter.DELETED_DIRECTORIES));
    assertTrue(f.store.fso().purgeDeletedDirectories(100) > 0, "the subtree waits for the purge");
    for (int steps = 0; f.store.fso().purgeDeletedDirectories(100) > 0; steps++) {
      assertTrue(steps < 10, "the purge ends");
    }
    assertEquals(0L, bucketCounter(OmCounter.DELETED_DIRECTORIES));
    assertEquals(List.of("a", "a/b"), listAll("", true, 3).stream().map(FileStatus::getPath)
        .toList());
  }

  // ---- listStatus, paged to the end -------------------------------------------------------------

  @Test
  void listStatusPagesToTheEndLikeTheFacadeAndTheModel() {
    buildTree();
    for (String path : List.of("", "d1", "d1/e0", "a-b", "top-0")) {
      for (boolean recursive : List.of(false, true)) {
        List<String> expected = expected(path, recursive);
        // null: num_entries absent, the page cap.
        for (Integer pageSize : Arrays.asList(1, 4, null)) {
          List<FileStatus> viaGrpc = listAll(path, recursive, pageSize);
          String what = "'" + path + "' recursive=" + recursive + " pageSize=" + pageSize;
          assertEquals(expected, viaGrpc.stream().map(FileStatus::getPath).toList(), what);
          ListPage<io.sediment.om.fso.FileStatus> direct = f.store.fso().listStatus(V, B, path, recursive,
              null, 100, null);
          assertFalse(direct.truncated());
          assertEquals(direct.items().stream().map(FileSystemRpcs::toProto).toList(), viaGrpc, what);
        }
      }
    }
    assertEquals(48, expected("", true).size(), "the whole tree");
    assertEquals(List.of("a", "a-b", "d0", "d1", "d2", "top-0", "top-1", "top-2"),
        expected("", false), "'a' sorts before 'a-b'; its subtree does not come between");
  }

  @Test
  void listStatusResumesAfterAnExclusiveStartKeyLikeAToken() {
    buildTree();
    List<String> all = expected("", true);
    List<String> viaStartKey = new ArrayList<>();
    String startKey = "";
    while (true) {
      ListStatusResponse r = f.om.listStatus(ListStatusRequest.newBuilder().setVolume(V)
          .setBucket(B).setRecursive(true).setStartKey(startKey).setNumEntries(7).build());
      r.getStatusesList().forEach(s -> viaStartKey.add(s.getPath()));
      if (!r.getTruncated()) {
        break;
      }
      startKey = r.getStatuses(r.getStatusesCount() - 1).getPath();
    }
    assertEquals(all, viaStartKey);

    ListStatusResponse afterD1 = f.om.listStatus(ListStatusRequest.newBuilder().setVolume(V)
        .setBucket(B).setStartKey("d1").setNumEntries(2).build());
    assertEquals(List.of("d2", "top-0"), afterD1.getStatusesList().stream()
        .map(FileStatus::getPath).toList(), "non-recursive: after d1 comes its next sibling");
    assertTrue(afterD1.getTruncated());
    assertFalse(afterD1.getNextPageToken().isEmpty());

    ListStatusResponse all100 = f.om.listStatus(ListStatusRequest.newBuilder().setVolume(V)
        .setBucket(B).setRecursive(true).build());
    assertEquals(Math.min(100, all.size()), all100.getStatusesCount(), "0 entries = the cap");
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listStatus(ListStatusRequest.newBuilder()
        .setVolume(V).setBucket(B).setNumEntries(101).build()));
  }

  // ---- errors -----------------------------------------------------------------------------------

  @Test
  void errorsMapToStatusCodesWithMessagesAndChangeNothing() {
    buildTree();
    Map<OmCounter, Long> counters = f.store.bucketCounters(V, B);
    List<String> before = expected("", true);
    assertEquals(before, listAll("", true, null).stream().map(FileStatus::getPath).toList());

    StatusRuntimeException notEmpty = assertStatus(Status.Code.FAILED_PRECONDITION,
        () -> f.om.deleteDirectory(DeleteDirectoryRequest.newBuilder().setVolume(V).setBucket(B)
            .setPath("d1").build()));
    assertTrue(notEmpty.getStatus().getDescription().contains("not empty"), notEmpty.getMessage());
    assertStatus(Status.Code.FAILED_PRECONDITION, () -> lookup("d1"));
    assertStatus(Status.Code.FAILED_PRECONDITION, () -> f.om.deleteFile(DeleteFileRequest
        .newBuilder().setVolume(V).setBucket(B).setPath("d1").build()));
    assertStatus(Status.Code.FAILED_PRECONDITION, () -> f.om.createFile(CreateFileRequest
        .newBuilder().setVolume(V).setBucket(B).setPath("top-0/below").build()));

    assertStatus(Status.Code.ALREADY_EXISTS, () -> mkdir("top-0"));
    assertStatus(Status.Code.ALREADY_EXISTS, () -> f.om.createFile(CreateFileRequest.newBuilder()
        .setVolume(V).setBucket(B).setPath("d1").build()));
    assertStatus(Status.Code.ALREADY_EXISTS, () -> f.om.rename(RenameRequest.newBuilder()
        .setVolume(V).setBucket(B).setFromPath("top-0").setToPath("top-1").build()));

    assertStatus(Status.Code.NOT_FOUND, () -> lookup("d1/nope"));
    assertStatus(Status.Code.NOT_FOUND, () -> status("nope/deeper"));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.deleteFile(DeleteFileRequest.newBuilder()
        .setVolume(V).setBucket(B).setPath("d1/nope").build()));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.deleteDirectory(DeleteDirectoryRequest
        .newBuilder().setVolume(V).setBucket(B).setPath("nope").setRecursive(true).build()));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.rename(RenameRequest.newBuilder()
        .setVolume(V).setBucket(B).setFromPath("top-0").setToPath("nope/top-0").build()));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.listStatus(ListStatusRequest.newBuilder()
        .setVolume(V).setBucket(B).setPath("nope").build()));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.createDirectory(CreateDirectoryRequest
        .newBuilder().setVolume(V).setBucket("no-bucket").setPath("a").build()));

    for (String bad : List.of("..", "a/../b", "d1//e0", "//", "./a", "d1/.")) {
      StatusRuntimeException e = assertStatus(Status.Code.INVALID_ARGUMENT, () -> mkdir(bad));
      assertTrue(e.getStatus().getDescription().contains("Path"), e.getMessage());
      assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listStatus(ListStatusRequest
          .newBuilder().setVolume(V).setBucket(B).setPath(bad).build()));
      assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.createFile(CreateFileRequest
          .newBuilder().setVolume(V).setBucket(B).setPath(bad + "/f").build()));
      assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.rename(RenameRequest.newBuilder()
          .setVolume(V).setBucket(B).setFromPath("top-0").setToPath(bad).build()));
    }
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> mkdir("/"));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.rename(RenameRequest.newBuilder()
        .setVolume(V).setBucket(B).setFromPath("d1").setToPath("d1/e0/inside").build()));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listStatus(ListStatusRequest.newBuilder()
        .setVolume(V).setBucket(B).setPath("d1").setStartKey("d2/e0").build()));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listStatus(ListStatusRequest.newBuilder()
        .setVolume(V).setBucket(B).setPageToken(ByteString.copyFromUtf8("forged")).build()));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.commitFile(CommitFileRequest.newBuilder()
        .setVolume(V).setBucket(B).setPath("top-0").setClientId(1).setDataSize(-1).build()));
    String token = f.om.listStatus(ListStatusRequest.newBuilder().setVolume(V).setBucket(B)
        .setPath("d1").setNumEntries(1).build()).getNextPageToken().toStringUtf8();
    assertFalse(token.isEmpty());
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listStatus(ListStatusRequest.newBuilder()
        .setVolume(V).setBucket(B).setPath("d2").setNumEntries(1)
        .setPageToken(ByteString.copyFromUtf8(token)).build()));

    assertStatus(Status.Code.UNIMPLEMENTED, () -> f.om.createDirectory(CreateDirectoryRequest
        .newBuilder().setVolume(V).setBucket("obs").setPath("a").build()));
    assertStatus(Status.Code.UNIMPLEMENTED, () -> f.om.listStatus(ListStatusRequest.newBuilder()
        .setVolume(V).setBucket("obs").build()));

    assertEquals(counters, f.store.bucketCounters(V, B), "no rejected call changed a counter");
    assertEquals(before, listAll("", true, null).stream().map(FileStatus::getPath).toList());
    assertEquals(0L, counters.get(OmCounter.OPEN_FILES), "no rejected CreateFile left a file open");
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /**
   * Directories d0..d2 each with e0..e2 (each with files g0, g1), files f0..f3 in each d, a
   * directory 'a' with 'a/x' and a directory 'a-b' (whose names straddle '/' in byte order), and
   * top-level files top-0..top-2; recorded in {@link #model}.
   */
  private void buildTree() {
    for (int d = 0; d < 3; d++) {
      for (int e = 0; e < 3; e++) {
        mkdir("d" + d + "/e" + e);
        for (int g = 0; g < 2; g++) {
          commitFile("d" + d + "/e" + e + "/g" + g, g + 1);
        }
      }
      for (int file = 0; file < 4; file++) {
        commitFile("d" + d + "/f" + file, 10 + file);
      }
    }
    commitFile("a/x", 1);
    mkdir("a-b");
    for (int t = 0; t < 3; t++) {
      commitFile("top-" + t, 100 + t);
    }
  }

  /**
   * The model's listing of {@code path}: its children, or its whole subtree; a file lists
   * itself.
   */
  private List<String> expected(String path, boolean recursive) {
    if (Boolean.FALSE.equals(model.get(path))) {
      return List.of(path);
    }
    List<String> out = new ArrayList<>();
    for (String p : model.keySet()) {
      boolean below = path.isEmpty() || p.startsWith(path + "/");
      String rest = path.isEmpty() ? p : p.substring(Math.min(p.length(), path.length() + 1));
      if (below && (recursive || !rest.contains("/"))) {
        out.add(p);
      }
    }
    return out;
  }

  private FileStatus mkdir(String path) {
    FileStatus s = f.om.createDirectory(CreateDirectoryRequest.newBuilder().setVolume(V)
        .setBucket(B).setPath(path).build()).getStatus();
    recordWithParents(s.getPath(), true);
    return s;
  }

  private void commitFile(String path, long size) {
    CreateFileResponse open = f.om.createFile(CreateFileRequest.newBuilder().setVolume(V)
        .setBucket(B).setPath(path).build());
    KeyInfo k = f.om.commitFile(CommitFileRequest.newBuilder().setVolume(V).setBucket(B)
        .setPath(path).setClientId(open.getClientId()).setDataSize(size).build()).getFile();
    assertNotEquals(0, k.getObjectId());
    recordWithParents(path, false);
  }

  private void recordWithParents(String path, boolean isDirectory) {
    model.put(path, isDirectory);
    for (int i = path.indexOf('/'); i > 0; i = path.indexOf('/', i + 1)) {
      model.put(path.substring(0, i), true);
    }
  }

  /** With {@code pageSize} null, num_entries is left absent: the page cap. */
  private List<FileStatus> listAll(String path, boolean recursive, Integer pageSize) {
    List<FileStatus> out = new ArrayList<>();
    ByteString token = ByteString.EMPTY;
    int pages = 0;
    do {
      ListStatusRequest.Builder req = ListStatusRequest.newBuilder().setVolume(V)
          .setBucket(B).setPath(path).setRecursive(recursive).setPageToken(token);
      if (pageSize != null) {
        req.setNumEntries(pageSize);
      }
      ListStatusResponse r = f.om.listStatus(req.build());
      assertTrue(pageSize == null || r.getStatusesCount() <= pageSize);
      assertEquals(r.getTruncated(), !r.getNextPageToken().isEmpty());
      out.addAll(r.getStatusesList());
      token = r.getNextPageToken();
      assertTrue(++pages < 1000, "the listing ends");
    } while (!token.isEmpty());
    return out;
  }

  private FileStatus status(String path) {
    return f.om.getFileStatus(GetFileStatusRequest.newBuilder().setVolume(V).setBucket(B)
        .setPath(path).build()).getStatus();
  }

  private KeyInfo lookup(String path) {
    return f.om.lookupFile(LookupFileRequest.newBuilder().setVolume(V).setBucket(B)
        .setPath(path).build()).getFile();
  }

  private long bucketCounter(OmCounter c) {
    return f.store.bucketCounters(V, B).get(c);
  }

  private static StatusRuntimeException assertStatus(Status.Code code, Executable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
    assertEquals(code, e.getStatus().getCode(), e.getMessage());
    assertTrue(e.getStatus().getDescription() != null && !e.getStatus().getDescription().isEmpty(),
        "a message says what to fix");
    return e;
  }

  private static Status.Code codeOf(Executable call) {
    try {
      call.execute();
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    } catch (Throwable t) {
      throw new AssertionError(t);
    }
  }
}
