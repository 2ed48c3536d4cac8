package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.om.NamespaceModel.BucketM;
import io.sediment.om.NamespaceModel.FileM;
import io.sediment.om.NamespaceModel.Item;
import io.sediment.om.NamespaceModel.KeyM;
import io.sediment.om.NamespaceModel.OpenM;
import io.sediment.om.NamespaceModel.PartM;
import io.sediment.om.NamespaceModel.UploadM;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.fso.DirectoryPurge;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.fso.FsoPath;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.om.multipart.MultipartUploads;
import io.sediment.om.purge.OmPurges;
import io.sediment.om.purge.PurgeResult;
import io.sediment.om.testing.MutableClock;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.PartInfo;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.SnapshotStatus;
import io.sediment.proto.om.VolumeInfo;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Drives one try of the cross-feature namespace properties: applies random writes to a store and
 * to a {@link NamespaceModel} (asserting that each call succeeds or fails exactly as the model
 * predicts), pages through every listing comparing each page with the model's prediction at
 * that moment, and compares tables and counters with the model.
 *
 * <p>The store is shared by the tries of one test class; each try works in a fresh volume. A
 * try first empties the store-wide queues (open keys and files, uploads, deleted keys and
 * directories; a day later by the clock, with zero thresholds), so the model's global tables
 * start empty, and reads the purge cursors the earlier tries left as the model's start.
 */
final class NamespaceHarness {

  // ---- the op mix ----

  static final int PUT_KEY = 0;
  static final int DELETE_KEY = 1;
  static final int RENAME_KEY = 2;
  static final int OPEN_KEY = 3;
  static final int COMMIT_SESSION = 4;
  static final int MPU_INITIATE = 5;
  static final int MPU_PART = 6;
  static final int MPU_COMPLETE = 7;
  static final int MPU_ABORT = 8;
  static final int MKDIR = 9;
  static final int PUT_FILE = 10;
  static final int OPEN_FILE = 11;
  static final int DELETE_FILE = 12;
  static final int DELETE_DIR = 13;
  static final int RENAME_PATH = 14;
  static final int SNAPSHOT_CREATE = 15;
  static final int SNAPSHOT_DELETE = 16;
  static final int PURGE_KEYS = 17;
  static final int EXPIRE_OPEN_KEYS = 18;
  static final int EXPIRE_OPEN_FILES = 19;
  static final int ABORT_EXPIRED_UPLOADS = 20;
  static final int PURGE_DIRECTORIES = 21;
  static final int ADVANCE_CLOCK = 22;
  static final int CREATE_BUCKET = 23;
  static final int DELETE_BUCKET = 24;
  static final int CREATE_VOLUME = 25;
  static final int DELETE_VOLUME = 26;
  static final int PUT_KEYS = 27;
  static final int PUT_FILES = 28;

  /**
   * One write. {@code bucket} selects the bucket of the op's layout; {@code key}/{@code key2}
   * are OBJECT_STORE key names, {@code path}/{@code path2} FSO paths; {@code n} (1 to 10) is a
   * size, limit, budget or clock step; {@code pick} aims the op at existing entries four times in
   * five (deletes and renames at a live key or path, creates into a live directory, commits at a
   * recorded session, part commits at a live upload).
   */
  record Op(int kind, int bucket, String key, String key2, String path, String path2, int n,
      int pick) {
  }

  /**
   * Key tokens: shared prefixes, the separator, a character below it, two- and four-byte UTF-8,
   * U+FF21 (above every surrogate in UTF-16, below U+1F600 in UTF-8: String.compareTo disagrees
   * with the store's order) and U+0000 (escaped in multipart keys, the successor of a cursor).
   */
  static final String[] KEY_TOKENS = {"a", "b", "/", "\u00e9", "\uD83D\uDE00", "-", "ab",
      "\uFF21", "\u0000"};
  /** FSO names, with the same traps ({@code a-} sorts before {@code a/...} as strings). */
  static final String[] NAMES = {"a", "a1", "ab", "a-", "b", "\u00e9", "\uFF21",
      "\uD83D\uDE00", "a\u0000"};
  static final String[] PREFIXES = {"", "a", "a/", "/", "\u00e9", "ab", "b/", "a/b"};
  static final String[] DELIMITERS = {null, "/", "a", "\u00e9", "b/", "\uD83D\uDE00"};
  static final String[] SNAPSHOTS = {"snap1", "snap10", "snap2"};
  static final String[] SNAPSHOT_PREFIXES = {"", "snap", "snap1", "snap2"};
  static final String[] OBS = {"ob1", "ob10", "lg1", "lg10"};
  static final BucketLayout[] OBS_LAYOUTS = {BucketLayout.OBJECT_STORE,
      BucketLayout.OBJECT_STORE, BucketLayout.LEGACY, BucketLayout.LEGACY};
  static final String[] FSO = {"fs1", "fs10"};
  /** Ops mostly go to the first bucket of each layout, so listings there are long. */
  private static final int[] OBS_BIAS = {0, 0, 0, 0, 0, 0, 2, 2, 2, 1, 1, 3};
  private static final int[] FSO_BIAS = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1};
  /** Snapshot creations per try (each is a RocksDB checkpoint: tens of milliseconds). */
  static final int MAX_SNAPSHOT_CREATES = 1;
  static final String[] SPARE_BUCKETS = {"ob100", "fs1a", "lg0"};
  static final BucketLayout[] LAYOUTS = {BucketLayout.OBJECT_STORE, BucketLayout.LEGACY,
      BucketLayout.FILE_SYSTEM_OPTIMIZED};
  static final String[] SPARE_VOLUME_SUFFIXES = {"-s1", ".s2", "s3"};
  static final String[] BUCKET_PREFIXES = {"", "ob", "ob1", "fs1", "lg", "x"};
  static final long[] THRESHOLDS_MS = {0, 20_000, 60_000};

  static Arbitrary<Op> op() {
    Arbitrary<Integer> kind = Arbitraries.frequency(
        Tuple.of(8, PUT_KEY), Tuple.of(3, PUT_KEYS), Tuple.of(4, DELETE_KEY),
        Tuple.of(3, RENAME_KEY), Tuple.of(2, OPEN_KEY), Tuple.of(3, COMMIT_SESSION),
        Tuple.of(2, MPU_INITIATE), Tuple.of(5, MPU_PART), Tuple.of(3, MPU_COMPLETE),
        Tuple.of(1, MPU_ABORT), Tuple.of(3, MKDIR), Tuple.of(6, PUT_FILE),
        Tuple.of(3, PUT_FILES), Tuple.of(2, OPEN_FILE), Tuple.of(3, DELETE_FILE),
        Tuple.of(4, DELETE_DIR), Tuple.of(3, RENAME_PATH),
        Tuple.of(1, SNAPSHOT_CREATE), Tuple.of(1, SNAPSHOT_DELETE), Tuple.of(2, PURGE_KEYS),
        Tuple.of(1, EXPIRE_OPEN_KEYS), Tuple.of(1, EXPIRE_OPEN_FILES),
        Tuple.of(1, ABORT_EXPIRED_UPLOADS), Tuple.of(2, PURGE_DIRECTORIES),
        Tuple.of(2, ADVANCE_CLOCK), Tuple.of(2, CREATE_BUCKET), Tuple.of(2, DELETE_BUCKET),
        Tuple.of(1, CREATE_VOLUME), Tuple.of(1, DELETE_VOLUME));
    Arbitrary<String> key = Arbitraries.of(KEY_TOKENS).list().ofMinSize(1).ofMaxSize(3)
        .map(l -> String.join("", l));
    Arbitrary<String> path = Arbitraries.of(NAMES).list().ofMinSize(1).ofMaxSize(3)
        .map(l -> String.join("/", l));
    return Combinators.combine(kind, Arbitraries.integers().between(0, 11), key, key, path, path,
        Arbitraries.integers().between(1, 10), Arbitraries.integers().between(0, 999))
        .as(Op::new);
  }

  // ---- the clock ----

  /** Options of the shared store: a small page cap, tokens that never expire, our clock. */
  static OmStoreOptions options(MutableClock clock, int cap) {
    return OmStoreOptions.defaults().withMaxListSize(cap).withTokenMaxAge(Duration.ZERO)
        .withClock(clock).withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE);
  }

  // ---- state ----

  /** A session opened by openKey or createFile, for later commits (also double ones). */
  record Session(boolean fso, String bucket, String name, long clientId) {
  }

  record UploadRef(String bucket, String key, String uploadId) {
  }

  final OmMetadataStore om;
  final MutableClock clock;
  final String v;
  final NamespaceModel model;
  /** Every volume of the store (all tries), maintained by the test class. */
  final NavigableSet<String> allVolumes;
  final int cap;
  final List<Session> sessions = new ArrayList<>();
  final List<UploadRef> uploads = new ArrayList<>();
  private int snapshotCreates;
  /** When set, every OBJECT_STORE (FSO) op goes to this bucket. */
  String focusObs;
  String focusFso;

  /** The listings of this try. */
  final NamespaceListings listings;

  /** Starts a try in the fresh volume {@code volume}; see the class comment. */
  NamespaceHarness(OmMetadataStore om, MutableClock clock, String volume,
      NavigableSet<String> allVolumes) {
    this.om = om;
    this.clock = clock;
    this.v = volume;
    this.allVolumes = allVolumes;
    this.cap = om.options().maxListSize();
    drainQueues();
    Map<OmCounter, Long> baseline = om.counters();
    assertEquals(om.countFromScan(), baseline, "counters before the try");
    this.model = new NamespaceModel(volume, baseline);
    model.keyCursor = om.purges().cursor(OmPurges.KEY_DELETING);
    model.openKeyCursor = om.purges().cursor(OmPurges.OPEN_KEY_CLEANUP);
    model.openFileCursor = om.purges().cursor(OmPurges.OPEN_FILE_CLEANUP);
    model.uploadCursor = om.purges().cursor(OmPurges.MULTIPART_UPLOAD_CLEANUP);
    model.dirCursor = dirCursor();

    VolumeInfo vol = om.createVolume(v, "alice");
    allVolumes.add(v);
    model.addVolume(v);
    for (int i = 0; i < OBS.length; i++) {
      BucketInfo b = om.createBucket(v, OBS[i], OBS_LAYOUTS[i], null, 0);
      model.addBucket(OBS[i], OBS_LAYOUTS[i], vol.getObjectId(), b.getObjectId());
    }
    for (String name : FSO) {
      BucketInfo b = om.createBucket(v, name, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      assertEquals(vol.getObjectId(), b.getVolumeId());
      model.addBucket(name, BucketLayout.FILE_SYSTEM_OPTIMIZED, vol.getObjectId(),
          b.getObjectId());
    }
    this.listings = new NamespaceListings(this);
  }

  /** Empties every store-wide queue (what earlier tries left), then checks they are empty. */
  private void drainQueues() {
    clock.advance(Duration.ofDays(1).toMillis());
    for (int guard = 0; om.fso().purgeDeletedDirectories(OmPurges.MAX_LIMIT) > 0; guard++) {
      assertTrue(guard < 1000, "the directory purge does not converge");
    }
    for (int guard = 0; !om.purges().expireOpenKeys(Duration.ZERO, OmPurges.MAX_LIMIT).skipped();
        guard++) {
      assertTrue(guard < 1000);
    }
    for (int guard = 0;
        !om.purges().expireOpenFiles(Duration.ZERO, OmPurges.MAX_LIMIT).skipped(); guard++) {
      assertTrue(guard < 1000);
    }
    for (int guard = 0;
        !om.purges().abortExpiredUploads(Duration.ZERO, OmPurges.MAX_LIMIT).skipped(); guard++) {
      assertTrue(guard < 1000);
    }
    for (int guard = 0; !om.purges().purgeDeletedKeys(OmPurges.MAX_LIMIT).skipped(); guard++) {
      assertTrue(guard < 1000);
    }
    for (TableDefinition<String, ?> t : List.of(OmDBDefinition.OPEN_KEY_TABLE,
        OmDBDefinition.OPEN_FILE_TABLE, OmDBDefinition.DELETED_TABLE,
        OmDBDefinition.DELETED_DIRECTORY_TABLE, OmDBDefinition.MULTIPART_INFO_TABLE,
        OmDBDefinition.MULTIPART_PARTS_TABLE)) {
      assertEquals(List.of(), FsoTestSupport.keys(om, t), t.name() + " after draining");
    }
  }

  private String dirCursor() {
    byte[] raw = om.dbStore().getTable(OmDBDefinition.META_TABLE).get(DirectoryPurge.CURSOR_KEY);
    return raw == null ? null : new String(raw, StandardCharsets.UTF_8);
  }

  long now() {
    return clock.millis();
  }

  // ------------------------------------------------------------------------------------------
  // Writes

  /**
   * Runs {@code body}; it must throw {@link OmException} with {@code expected}, or succeed when
   * {@code expected} is null. Returns its result (null when it threw).
   */
  static <T> T call(Code expected, String what, Supplier<T> body) {
    T result;
    try {
      result = body.get();
    } catch (OmException e) {
      if (expected == null) {
        throw new AssertionError(what + " failed but the model expected success: "
            + e.getMessage(), e);
      }
      assertEquals(expected, e.code(), () -> what + ": " + e.getMessage());
      return null;
    }
    if (expected != null) {
      fail(what + " succeeded but the model expected " + expected);
    }
    return result;
  }

  static Code run(Code expected, String what, Runnable body) {
    call(expected, what, () -> {
      body.run();
      return Boolean.TRUE;
    });
    return expected;
  }

  /** Applies one op to the store and the model, asserting the store's outcome. */
  void apply(Op op) {
    String obs = obsBucket(op);
    BucketM fso = fsoBucket(op);
    switch (op.kind()) {
      case PUT_KEY -> putKey(obs, op.key(), op.n());
      case PUT_KEYS -> {
        // Several keys sharing the op's key as a prefix (long listings, common prefixes).
        for (int i = 0; i < Math.min(op.n(), 6); i++) {
          putKey(obs, op.key() + KEY_TOKENS[(op.pick() + i) % KEY_TOKENS.length]
              + (i >= KEY_TOKENS.length ? "b" : ""), i + 1);
        }
      }
      case DELETE_KEY -> {
        deleteKey(obs, liveKey(obs, op.pick(), op.key()));
      }
      case RENAME_KEY -> {
        String from = liveKey(obs, op.pick(), op.key());
        String to = op.pick() % 7 == 0 ? liveKey(obs, op.pick() / 7 + 1, op.key2()) : op.key2();
        Code c = model.predictRenameKey(obs, from, to);
        KeyInfo k = call(c, "renameKey " + obs + "/" + from + " -> " + to,
            () -> om.renameKey(v, obs, from, to));
        if (c == null) {
          KeyM before = model.key(obs, from);
          model.applyRenameKey(obs, from, to);
          assertEquals(to, k.getKeyName());
          assertEquals(before.objectId(), k.getObjectId());
        }
      }
      case OPEN_KEY -> openKey(obs, op.key());
      case COMMIT_SESSION -> commitSession(op);
      case MPU_INITIATE -> {
        String id = call(null, "initiate " + obs + "/" + op.key(),
            () -> om.multipart().initiate(v, obs, op.key(), null));
        model.applyInitiate(obs, op.key(), id, now());
        uploads.add(new UploadRef(obs, op.key(), id));
      }
      case MPU_PART -> commitPart(op);
      case MPU_COMPLETE -> complete(op);
      case MPU_ABORT -> {
        UploadRef u = pickUpload(op);
        if (u != null) {
          abort(u);
        }
      }
      case MKDIR -> mkdir(fso, intoLiveDir(fso, op.path(), op.pick()));
      case PUT_FILE -> putFile(fso, intoLiveDir(fso, op.path(), op.pick()), op.n());
      case PUT_FILES -> {
        // Several files into one directory (bushy directories, several listing pages).
        String dir = op.pick() % 5 == 0 ? op.path() : livePath(fso, op.path(), op.pick(), true);
        for (int i = 0; i < Math.min(op.n(), 6); i++) {
          putFile(fso, dir + "/" + NAMES[(op.pick() + i) % NAMES.length]
              + (i >= NAMES.length ? "z" : ""), i + 1);
        }
      }
      case OPEN_FILE -> openFile(fso, intoLiveDir(fso, op.path(), op.pick()));
      case DELETE_FILE -> {
        deleteFile(fso, livePath(fso, op.path(), op.pick(), false));
      }
      case DELETE_DIR -> {
        deleteDirectory(fso, livePath(fso, op.path(), op.pick(), true), op.pick() % 3 != 0);
      }
      case RENAME_PATH -> {
        String from = livePath(fso, op.path(), op.pick(), op.pick() % 2 == 0);
        String to = op.pick() % 5 == 1 ? op.path2() : intoLiveDir(fso, op.path2(), op.pick() / 5);
        Code c = model.predictRename(fso, from, to);
        FileStatus s = call(c, "rename " + fso.name() + "/" + from + " -> " + to,
            () -> om.fso().rename(v, fso.name(), from, to));
        if (c == null) {
          model.applyRename(fso, from, to);
          assertEquals(to, s.path());
        }
      }
      case SNAPSHOT_CREATE -> {
        if (snapshotCreates >= MAX_SNAPSHOT_CREATES) {
          return;
        }
        String b = mainBucket(op);
        String name = SNAPSHOTS[op.pick() % SNAPSHOTS.length];
        Code c = model.predictCreateSnapshot(b, name);
        SnapshotInfo s = call(c, "createSnapshot " + b + "/" + name,
            () -> om.snapshots().create(v, b, name));
        snapshotCreates++;
        if (c == null) {
          model.applyCreateSnapshot(b, name);
          assertEquals(SnapshotStatus.SNAPSHOT_ACTIVE, s.getStatus());
        }
      }
      case SNAPSHOT_DELETE -> {
        deleteSnapshot(mainBucket(op), SNAPSHOTS[op.pick() % SNAPSHOTS.length]);
      }
      case PURGE_KEYS -> purgeKeys(op.n() * 2);
      case EXPIRE_OPEN_KEYS -> expire(false, THRESHOLDS_MS[op.pick() % 3], op.n());
      case EXPIRE_OPEN_FILES -> expire(true, THRESHOLDS_MS[op.pick() % 3], op.n());
      case ABORT_EXPIRED_UPLOADS -> abortExpired(THRESHOLDS_MS[op.pick() % 3], op.n());
      case PURGE_DIRECTORIES -> purgeDirectories(op.pick() % 4 == 0 ? 1 : op.n() * 2);
      case ADVANCE_CLOCK -> clock.advance(op.n() * 7_000L);
      case CREATE_BUCKET -> {
        String name = SPARE_BUCKETS[op.pick() % SPARE_BUCKETS.length];
        BucketLayout layout = LAYOUTS[(op.pick() / 3) % LAYOUTS.length];
        Code c = model.buckets.containsKey(name) ? Code.ALREADY_EXISTS : null;
        BucketInfo b = call(c, "createBucket " + name,
            () -> om.createBucket(v, name, layout, null, 0));
        if (c == null) {
          model.addBucket(name, layout, b.getVolumeId(), b.getObjectId());
        }
      }
      case DELETE_BUCKET -> {
        if (op.pick() % 2 == 0) {
          List<String> existing = new ArrayList<>();
          for (String name : SPARE_BUCKETS) {
            if (model.buckets.containsKey(name)) {
              existing.add(name);
            }
          }
          String spare = existing.isEmpty() || op.pick() % 5 == 0
              ? SPARE_BUCKETS[(op.pick() / 2) % SPARE_BUCKETS.length]
              : existing.get((op.pick() / 2) % existing.size());
          if (op.pick() % 3 != 1) {
            emptySpareBucket(spare);
          }
          deleteSpareBucket(spare);
        } else if (!model.bucketDeletable(mainBucket(op))) {
          // The main buckets stay: only refused deletes of them.
          run(Code.FAILED_PRECONDITION, "deleteBucket " + mainBucket(op),
              () -> om.deleteBucket(v, mainBucket(op)));
        }
      }
      case CREATE_VOLUME -> {
        String name = v + SPARE_VOLUME_SUFFIXES[op.pick() % SPARE_VOLUME_SUFFIXES.length];
        Code c = model.volumes.containsKey(name) ? Code.ALREADY_EXISTS : null;
        if (call(c, "createVolume " + name, () -> om.createVolume(name, "bob")) != null) {
          model.addVolume(name);
          allVolumes.add(name);
        }
      }
      case DELETE_VOLUME -> {
        if (op.pick() % 2 == 0) {
          deleteSpareVolume(v + SPARE_VOLUME_SUFFIXES[(op.pick() / 2)
              % SPARE_VOLUME_SUFFIXES.length]);
        } else {
          run(Code.FAILED_PRECONDITION, "deleteVolume " + v, () -> om.deleteVolume(v));
        }
      }
      default -> throw new AssertionError(op);
    }
  }

  private void deleteKey(String b, String key) {
    Code c = model.predictDeleteKey(b, key);
    if (run(c, "deleteKey " + b + "/" + key, () -> om.deleteKey(v, b, key)) == null) {
      model.applyDeleteKey(b, key);
    }
  }

  private void abort(UploadRef u) {
    Code bc = model.bucketCode(u.bucket(), false);
    Code c = bc != null ? bc : model.predictUploadExists(u.bucket(), u.key(), u.uploadId());
    if (run(c, "abort " + u, () -> om.multipart().abort(v, u.bucket(), u.key(),
        u.uploadId())) == null) {
      model.applyAbort(u.bucket(), u.key(), u.uploadId());
    }
  }

  private void deleteFile(BucketM b, String p) {
    Code c = model.predictDeleteFile(b, p);
    if (run(c, "deleteFile " + b.name() + "/" + p, () -> om.fso().deleteFile(v, b.name(), p)) == null) {
      model.applyDeleteFile(b, p);
    }
  }

  private void deleteDirectory(BucketM b, String p, boolean recursive) {
    Code c = model.predictDeleteDir(b, p, recursive);
    if (run(c, "deleteDirectory " + b.name() + "/" + p + " recursive=" + recursive,
        () -> om.fso().deleteDirectory(v, b.name(), p, recursive)) == null) {
      model.applyDeleteDir(b, p);
    }
  }

  private void deleteSnapshot(String b, String name) {
    Code c = model.predictDeleteSnapshot(b, name);
    if (run(c, "deleteSnapshot " + b + "/" + name, () -> om.snapshots().delete(v, b, name)) == null) {
      model.applyDeleteSnapshot(b, name);
    }
  }

  private void deleteSpareBucket(String name) {
    Code c = !model.buckets.containsKey(name) ? Code.NOT_FOUND
        : model.bucketDeletable(name) ? null : Code.FAILED_PRECONDITION;
    if (run(c, "deleteBucket " + name, () -> om.deleteBucket(v, name)) == null) {
      model.deleteBucket(name);
    }
  }

  /**
   * Empties a spare bucket through ordinary writes: its keys deleted and its uploads aborted,
   * or its top-level files and directories deleted (recursively) and the directory purge run
   * until its rows are gone. Its deleted versions stay in deletedTable.
   */
  private void emptySpareBucket(String name) {
    BucketM b = model.buckets.get(name);
    if (b == null) {
      return;
    }
    if (!b.fso()) {
      String base = OmKeys.bucketPrefix(v, name);
      for (Map.Entry<String, KeyM> e : NamespaceModel.under(model.keyTable, base)) {
        deleteKey(name, e.getKey().substring(base.length()));
      }
      for (UploadM u : new ArrayList<>(model.multipartTable.values())) {
        if (u.bucket().equals(name)) {
          abort(new UploadRef(name, u.key(), u.uploadId()));
        }
      }
      return;
    }
    for (Item i : model.fsoListing(b, "", b.objectId(), false)) {
      if (i.id().startsWith("D:")) {
        deleteDirectory(b, i.id().substring(2), true);
      } else {
        deleteFile(b, i.id().substring(2));
      }
    }
    for (int guard = 0; !model.bucketDeletable(name); guard++) {
      assertTrue(guard < 100, "the directory purge does not empty " + name);
      purgeDirectories(50);
    }
  }

  private void deleteSpareVolume(String name) {
    Code c = model.volumes.containsKey(name) ? null : Code.NOT_FOUND;
    if (run(c, "deleteVolume " + name, () -> om.deleteVolume(name)) == null) {
      model.volumes.remove(name);
      allVolumes.remove(name);
    }
  }

  /**
   * Removes a listed item through the ordinary write path (delete a key, file, directory
   * recursively, snapshot, spare bucket or volume; commit an open key or file; abort an upload;
   * a common prefix: delete every key under it). Items that cannot be removed (a main bucket or
   * volume, an open file whose session can no longer commit) stay.
   */
  void remove(NamespaceListings.Lister lister, Item item) {
    String name = item.id().substring(2);
    switch (item.id().substring(0, 2)) {
      case "K:" -> deleteKey(lister.bucket, name);
      case "P:" -> {
        String base = OmKeys.bucketPrefix(v, lister.bucket);
        for (Map.Entry<String, KeyM> e : NamespaceModel.under(model.keyTable, base + name)) {
          deleteKey(lister.bucket, e.getKey().substring(base.length()));
        }
      }
      case "D:" -> deleteDirectory(model.bucket(lister.bucket), name, true);
      case "F:" -> deleteFile(model.bucket(lister.bucket), name);
      case "O:" -> {
        OpenM o = model.openKeyTable.containsKey(name) ? model.openKeyTable.get(name)
            : model.openFileTable.get(name);
        if (model.buckets.get(o.bucket()).fso()) {
          BucketM b = model.bucket(o.bucket());
          if (model.predictCommitFile(b, o.name(), o.clientId()) == null) {
            commitFile(b, o.name(), o.clientId(), 1);
          }
        } else {
          commitKey(o.bucket(), o.name(), o.clientId(), 1);
        }
      }
      case "U:" -> {
        int at = name.lastIndexOf('#');
        abort(new UploadRef(lister.bucket, name.substring(0, at), name.substring(at + 1)));
      }
      case "S:" -> deleteSnapshot(lister.bucket, name);
      case "V:" -> {
        if (model.volumes.containsKey(name) && !name.equals(v)) {
          deleteSpareVolume(name);
        }
      }
      case "B:" -> {
        if (model.buckets.containsKey(name) && model.bucket(name).objectId() > 0
            && List.of(SPARE_BUCKETS).contains(name)) {
          deleteSpareBucket(name);
        }
      }
      default -> throw new AssertionError(item);
    }
  }

  /**
   * The OBJECT_STORE or LEGACY bucket of an op: the focus, else mostly the first; sometimes a
   * spare bucket that exists now (so spare buckets hold data when deleted and re-created).
   */
  private String obsBucket(Op op) {
    if (focusObs != null) {
      return focusObs;
    }
    if (op.bucket() >= 10) {
      for (String spare : SPARE_BUCKETS) {
        BucketM b = model.buckets.get(spare);
        if (b != null && !b.fso()) {
          return spare;
        }
      }
    }
    return OBS[OBS_BIAS[op.bucket() % OBS_BIAS.length]];
  }

  /** The FSO bucket of an op, chosen as {@link #obsBucket} does. */
  private BucketM fsoBucket(Op op) {
    if (focusFso != null) {
      return model.bucket(focusFso);
    }
    if (op.bucket() >= 10) {
      for (String spare : SPARE_BUCKETS) {
        BucketM b = model.buckets.get(spare);
        if (b != null && b.fso()) {
          return b;
        }
      }
    }
    return model.bucket(FSO[FSO_BIAS[op.bucket() % FSO_BIAS.length]]);
  }

  private static String mainBucket(Op op) {
    int i = op.bucket() % 8;
    return i < 3 ? OBS[0] : i < 5 ? FSO[0] : i < 7 ? OBS[i - 4] : FSO[1];
  }

  /** A live key of {@code bucket} four times in five (when there is one), else {@code other}. */
  private String liveKey(String bucket, int pick, String other) {
    List<Map.Entry<String, KeyM>> live = NamespaceModel.under(model.keyTable,
        OmKeys.bucketPrefix(v, bucket));
    if (live.isEmpty() || pick % 5 == 0) {
      return other;
    }
    return live.get(pick % live.size()).getKey()
        .substring(OmKeys.bucketPrefix(v, bucket).length());
  }

  /** {@code path}'s leaf in a live directory {@code pick} selects; {@code path} one in five. */
  private String intoLiveDir(BucketM b, String path, int pick) {
    if (pick % 5 == 0) {
      return path;
    }
    List<String> dirs = model.visibleDirs(b);
    return FsoPath.join(dirs.get((pick / 5) % dirs.size()),
        path.substring(path.lastIndexOf('/') + 1));
  }

  /** A live path (a directory when {@code dir}, mostly) four times in five, else {@code path}. */
  private String livePath(BucketM b, String path, int pick, boolean dir) {
    if (pick % 5 == 0) {
      return path;
    }
    List<String> paths = new ArrayList<>();
    for (Item i : model.fsoListing(b, "", b.objectId(), true)) {
      if (!dir || i.id().startsWith("D:") || pick % 5 == 1) {
        paths.add(i.id().substring(2));
      }
    }
    return paths.isEmpty() ? path : paths.get((pick / 5) % paths.size());
  }

  private OpenKeySession openKey(String b, String key) {
    OpenKeySession s = call(null, "openKey " + b + "/" + key, () -> om.openKey(v, b, key, null));
    assertEquals(now(), s.openKey().getCreationTime());
    model.applyOpenKey(b, key, s.clientId(), s.openKey().getObjectId(), now());
    sessions.add(new Session(false, b, key, s.clientId()));
    return s;
  }

  private void putKey(String b, String key, long size) {
    commitKey(b, key, openKey(b, key).clientId(), size);
  }

  private void commitKey(String b, String key, long clientId, long size) {
    Code bc = model.bucketCode(b, false);
    Code c = bc != null ? bc : model.predictCommitKey(b, key, clientId);
    KeyInfo k = call(c, "commitKey " + b + "/" + key + " client " + clientId,
        () -> om.commitKey(v, b, key, clientId, size));
    if (c == null) {
      KeyM m = model.applyCommitKey(b, key, clientId, size);
      assertEquals(m.objectId(), k.getObjectId());
      assertEquals(size, k.getDataSize());
    }
  }

  private void commitSession(Op op) {
    if (sessions.isEmpty()) {
      return;
    }
    Session s = sessions.get(op.pick() % sessions.size());
    long client = op.pick() % 9 == 0 ? s.clientId() + 1 : s.clientId();
    if (s.fso()) {
      Code bc = model.bucketCode(s.bucket(), true);
      if (bc != null) {
        run(bc, "commitFile in " + s.bucket(),
            () -> om.fso().commitFile(v, s.bucket(), s.name(), client, op.n()));
      } else {
        commitFile(model.bucket(s.bucket()), s.name(), client, op.n());
      }
    } else {
      commitKey(s.bucket(), s.name(), client, op.n());
    }
  }

  private UploadRef pickUpload(Op op) {
    if (uploads.isEmpty()) {
      return null;
    }
    List<UploadRef> live = new ArrayList<>();
    for (UploadRef u : uploads) {
      if (model.upload(u.bucket(), u.key(), u.uploadId()) != null) {
        live.add(u);
      }
    }
    UploadRef u = live.isEmpty() || op.pick() % 5 == 0
        ? uploads.get(op.pick() % uploads.size()) : live.get(op.pick() % live.size());
    return op.pick() % 11 == 0 ? new UploadRef(u.bucket(), u.key() + "a", u.uploadId()) : u;
  }

  private void commitPart(Op op) {
    UploadRef u = pickUpload(op);
    if (u == null) {
      return;
    }
    int number = 1 + op.n() % 3;
    long size = op.pick() % 4 == 0 ? op.n() : MultipartUploads.MIN_PART_SIZE + op.n();
    String etag = "e" + op.pick() + "-" + op.n();
    Code bc = model.bucketCode(u.bucket(), false);
    Code c = bc != null ? bc : model.predictUploadExists(u.bucket(), u.key(), u.uploadId());
    PartInfo p = call(c, "commitPart " + u + " #" + number,
        () -> om.multipart().commitPart(v, u.bucket(), u.key(), u.uploadId(), number, size, etag));
    if (c == null) {
      assertEquals(number, p.getPartNumber());
      assertEquals(size, p.getSize());
      model.applyCommitPart(u.bucket(), u.key(), u.uploadId(), number,
          new PartM(p.getObjectId(), size, etag));
    }
  }

  private void complete(Op op) {
    UploadRef u = pickUpload(op);
    if (u == null) {
      return;
    }
    UploadM m = model.upload(u.bucket(), u.key(), u.uploadId());
    List<Integer> numbers = m == null || m.parts().isEmpty()
        ? new ArrayList<>(List.of(1)) : new ArrayList<>(m.parts().keySet());
    switch (op.pick() % 6) {
      case 3 -> {
        if (numbers.size() > 1) {
          numbers.remove(0);
        }
      }
      case 5 -> numbers.add(numbers.get(numbers.size() - 1) + 1);
      default -> {
      }
    }
    if (op.pick() % 13 == 0) {
      Collections.reverse(numbers);
    }
    List<CompletedPart> parts = new ArrayList<>();
    for (int i = 0; i < numbers.size(); i++) {
      PartM have = m == null ? null : m.parts().get(numbers.get(i));
      String etag = have == null ? "none" : have.etag();
      if (op.pick() % 6 == 4 && i == numbers.size() - 1) {
        etag = etag + "x";
      } else if (op.pick() % 2 == 0) {
        etag = "\"" + etag + "\"";
      }
      parts.add(new CompletedPart(numbers.get(i), etag));
    }
    Code c = NamespaceModel.checkPartList(parts);
    if (c == null) {
      c = model.bucketCode(u.bucket(), false);
    }
    if (c == null) {
      c = model.predictComplete(u.bucket(), u.key(), u.uploadId(), parts);
    }
    Code expected = c;
    KeyInfo k = call(expected, "complete " + u + " " + parts, () -> om.multipart().complete(v,
        u.bucket(), u.key(), u.uploadId(), parts));
    if (expected == null) {
      KeyM committed = model.applyComplete(u.bucket(), u.key(), u.uploadId(), parts);
      assertEquals(committed.objectId(), k.getObjectId());
      assertEquals(committed.size(), k.getDataSize());
    }
  }

  private void mkdir(BucketM b, String path) {
    Code c = model.predictMkdir(b, path);
    List<String> comps = NamespaceModel.components(path);
    int first = model.firstMissing(b, comps, comps.size());
    FileStatus s = call(c, "createDirectory " + b.name() + "/" + path,
        () -> om.fso().createDirectory(v, b.name(), path));
    if (c == null) {
      assertTrue(s.isDirectory());
      assertEquals(path, s.path());
      learnDirectories(b, comps, first, comps.size());
    }
  }

  /** Adds the directories {@code comps[from, to)} the store just created, with their ids. */
  private void learnDirectories(BucketM b, List<String> comps, int from, int to) {
    long parent = from == 0 ? b.objectId() : model.dirId(b, NamespaceModel.join(comps, from));
    for (int i = from; i < to; i++) {
      FileStatus s = om.fso().getFileStatus(v, b.name(), NamespaceModel.join(comps, i + 1));
      assertTrue(s.isDirectory(), s.toString());
      assertEquals(parent, s.parentId(), "parent of " + s.path());
      model.addDir(b, parent, comps.get(i), s.objectId());
      parent = s.objectId();
    }
  }

  private OpenKeySession openFile(BucketM b, String path) {
    Code c = model.predictCreateFile(b, path);
    List<String> comps = NamespaceModel.components(path);
    int first = model.firstMissing(b, comps, comps.size() - 1);
    OpenKeySession s = call(c, "createFile " + b.name() + "/" + path,
        () -> om.fso().createFile(v, b.name(), path, null));
    if (c == null) {
      learnDirectories(b, comps, first, comps.size() - 1);
      long parent = model.dirId(b, NamespaceModel.join(comps, comps.size() - 1));
      assertEquals(parent, s.openKey().getParentId());
      model.applyOpenFile(b, path, parent, s.clientId(), s.openKey().getObjectId(), now());
      sessions.add(new Session(true, b.name(), path, s.clientId()));
    }
    return s;
  }

  private void putFile(BucketM b, String path, long size) {
    OpenKeySession s = openFile(b, path);
    if (s != null) {
      commitFile(b, path, s.clientId(), size);
    }
  }

  private void commitFile(BucketM b, String path, long clientId, long size) {
    Code c = model.predictCommitFile(b, path, clientId);
    KeyInfo k = call(c, "commitFile " + b.name() + "/" + path + " client " + clientId,
        () -> om.fso().commitFile(v, b.name(), path, clientId, size));
    if (c == null) {
      FileM f = model.applyCommitFile(b, path, clientId, size);
      assertEquals(f.objectId(), k.getObjectId());
      assertEquals(path, k.getKeyName());
      assertEquals(size, k.getDataSize());
    }
  }

  // ---- purge steps (each result and persisted cursor must be the model's) ----

  void purgeKeys(int limit) {
    PurgeResult expected = model.purgeDeletedKeys(limit);
    assertEquals(expected, om.purges().purgeDeletedKeys(limit), "purgeDeletedKeys(" + limit + ")");
    assertEquals(model.keyCursor, om.purges().cursor(OmPurges.KEY_DELETING));
  }

  void expire(boolean files, long thresholdMs, int limit) {
    PurgeResult expected = model.expireOpen(files, now(), thresholdMs, limit);
    Duration t = Duration.ofMillis(thresholdMs);
    PurgeResult got = files ? om.purges().expireOpenFiles(t, limit)
        : om.purges().expireOpenKeys(t, limit);
    assertEquals(expected, got, (files ? "expireOpenFiles" : "expireOpenKeys") + "(" + t + ", "
        + limit + ")");
    assertEquals(files ? model.openFileCursor : model.openKeyCursor, om.purges().cursor(
        files ? OmPurges.OPEN_FILE_CLEANUP : OmPurges.OPEN_KEY_CLEANUP));
  }

  void abortExpired(long thresholdMs, int limit) {
    PurgeResult expected = model.abortExpiredUploads(now(), thresholdMs, limit);
    assertEquals(expected, om.purges().abortExpiredUploads(Duration.ofMillis(thresholdMs), limit),
        "abortExpiredUploads(" + thresholdMs + " ms, " + limit + ")");
    assertEquals(model.uploadCursor, om.purges().cursor(OmPurges.MULTIPART_UPLOAD_CLEANUP));
  }

  int purgeDirectories(int budget) {
    int expected = model.purgeDeletedDirectories(budget);
    assertEquals(expected, om.fso().purgeDeletedDirectories(budget),
        "purgeDeletedDirectories(" + budget + ")");
    assertEquals(model.dirCursor, dirCursor(), "directory purge cursor after purgeDeletedDirectories("
        + budget + ")");
    return expected;
  }

  /**
   * Runs every purge step with random budgets until none can remove anything more: the
   * directory queue, then expired open keys, open files and uploads (one threshold), then the
   * deleted versions. Each step is checked against the model as it runs.
   */
  void purgeToExhaustion(Random random) {
    long threshold = THRESHOLDS_MS[random.nextInt(THRESHOLDS_MS.length)];
    for (int guard = 0; purgeDirectories(1 + random.nextInt(12)) > 0; guard++) {
      assertTrue(guard < 10_000, "the directory purge does not converge");
    }
    for (int guard = 0; model.anyExpired(model.openKeyTable, now(), threshold); guard++) {
      assertTrue(guard < 10_000);
      expire(false, threshold, 1 + random.nextInt(6));
    }
    for (int guard = 0; model.anyExpired(model.openFileTable, now(), threshold); guard++) {
      assertTrue(guard < 10_000);
      expire(true, threshold, 1 + random.nextInt(6));
    }
    for (int guard = 0; model.anyExpired(model.multipartTable, now(), threshold); guard++) {
      assertTrue(guard < 10_000);
      abortExpired(threshold, 1 + random.nextInt(6));
    }
    for (int guard = 0; !model.deletedTable.isEmpty(); guard++) {
      assertTrue(guard < 10_000);
      purgeKeys(1 + random.nextInt(20));
    }
    // Nothing is left to do: each step removes nothing more.
    assertEquals(0, purgeDirectories(1 + random.nextInt(5)));
    purgeKeys(1 + random.nextInt(5));
    expire(false, threshold, OmPurges.MAX_LIMIT);
    expire(true, threshold, OmPurges.MAX_LIMIT);
    abortExpired(threshold, OmPurges.MAX_LIMIT);
    assertTrue(model.deletedTable.isEmpty() && model.deletedDirTable.isEmpty());
    assertTrue(!model.anyExpired(model.openKeyTable, now(), threshold)
        && !model.anyExpired(model.openFileTable, now(), threshold)
        && !model.anyExpired(model.multipartTable, now(), threshold));
  }

  // ------------------------------------------------------------------------------------------
  // Tables and counters

  private static <V> List<String> scan(OmMetadataStore om, TableDefinition<String, V> def,
      String prefix, Function<V, String> format) {
    List<String> out = new ArrayList<>();
    Table<String, V> table = om.dbStore().getTable(def);
    try (TableIterator<String, KeyValue<String, V>> it =
             table.iterator(prefix, IteratorType.KEY_AND_VALUE)) {
      while (it.hasNext()) {
        KeyValue<String, V> kv = it.next();
        out.add(kv.getKey() + "=" + format.apply(kv.getValue()));
      }
    }
    return out;
  }

  private static <V> List<String> rows(TreeMap<String, V> table, String prefix,
      Function<Map.Entry<String, V>, String> format) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, V> e : prefix == null ? new ArrayList<>(table.entrySet())
        : NamespaceModel.under(table, prefix)) {
      out.add(e.getKey() + "=" + format.apply(e));
    }
    return out;
  }

  /** Every table this try touches holds exactly the model's rows (global queues: all rows). */
  void assertTables() {
    String names = "/" + v + "/";
    String ids = "/" + OmKeys.id(model.bucket(OBS[0]).volumeId()) + "/";
    assertEquals(rows(model.keyTable, null, e -> e.getKey().substring(
            e.getKey().indexOf('/', names.length()) + 1) + "#" + e.getValue().objectId() + "/"
            + e.getValue().size()),
        scan(om, OmDBDefinition.KEY_TABLE, names,
            k -> k.getKeyName() + "#" + k.getObjectId() + "/" + k.getDataSize()), "keyTable");
    assertEquals(rows(model.openKeyTable, null, e -> open(e.getValue())),
        scan(om, OmDBDefinition.OPEN_KEY_TABLE, null, NamespaceHarness::open), "openKeyTable");
    assertEquals(rows(model.openFileTable, null, e -> open(e.getValue())),
        scan(om, OmDBDefinition.OPEN_FILE_TABLE, null, NamespaceHarness::open), "openFileTable");
    assertEquals(rows(model.deletedTable, null, e -> e.getValue().objectId() + "/"
            + e.getValue().size()),
        scan(om, OmDBDefinition.DELETED_TABLE, null, k -> k.getObjectId() + "/" + k.getDataSize()),
        "deletedTable");
    assertEquals(rows(model.deletedDirTable, null, e -> e.getValue().objectId() + "@"
            + e.getValue().path()),
        scan(om, OmDBDefinition.DELETED_DIRECTORY_TABLE, null,
            k -> k.getObjectId() + "@" + k.getKeyName()), "deletedDirectoryTable");
    assertEquals(rows(model.multipartTable, null, e -> upload(e.getValue())),
        scan(om, OmDBDefinition.MULTIPART_INFO_TABLE, null, u -> upload(om, u)),
        "multipartInfoTable");
    assertEquals(rows(model.dirTable, null, e -> e.getValue().objectId() + "<"
            + e.getValue().parentId() + ":" + e.getValue().name()),
        scan(om, OmDBDefinition.DIRECTORY_TABLE, ids,
            d -> d.getObjectId() + "<" + d.getParentId() + ":" + d.getName()), "directoryTable");
    assertEquals(rows(model.fileTable, null, e -> e.getValue().objectId() + "<"
            + e.getValue().parentId() + ":" + e.getValue().name() + "/" + e.getValue().size()),
        scan(om, OmDBDefinition.FILE_TABLE, ids, f -> f.getObjectId() + "<" + f.getParentId()
            + ":" + f.getFileName() + "/" + f.getDataSize()), "fileTable");
    assertEquals(rows(model.snapshotTable, null, e -> e.getValue() ? "ACTIVE" : "DELETED"),
        scan(om, OmDBDefinition.SNAPSHOT_INFO_TABLE, names,
            s -> s.getStatus() == SnapshotStatus.SNAPSHOT_ACTIVE ? "ACTIVE" : "DELETED"),
        "snapshotInfoTable");
    assertEquals(rows(model.buckets, null, e -> e.getValue().layout() + "#"
            + e.getValue().objectId()).stream().map(s -> names + s).toList(),
        scan(om, OmDBDefinition.BUCKET_TABLE, names, b -> b.getLayout() + "#" + b.getObjectId()),
        "bucketTable");
  }

  private static String open(OpenM o) {
    return o.objectId() + "/" + o.clientId() + "@" + o.created() + ":" + o.name();
  }

  private static String open(KeyInfo k) {
    return k.getObjectId() + "/" + k.getClientId() + "@" + k.getCreationTime() + ":"
        + k.getKeyName();
  }

  private static String upload(UploadM u) {
    StringBuilder s = new StringBuilder(u.objectId() + "@" + u.created() + ":" + u.key());
    u.parts().forEach((n, p) -> s.append(" ").append(n).append("=").append(p.objectId())
        .append("/").append(p.size()).append("/").append(p.etag()));
    return s.toString();
  }

  private static String upload(OmMetadataStore om, MultipartUploadInfo u) {
    StringBuilder s = new StringBuilder(u.getObjectId() + "@" + u.getCreationTime() + ":"
        + u.getKeyName());
    Table<String, PartInfo> parts = om.dbStore().getTable(OmDBDefinition.MULTIPART_PARTS_TABLE);
    List<PartInfo> list = new ArrayList<>();
    try (TableIterator<String, KeyValue<String, PartInfo>> it = parts.iterator(
        OmKeys.multipartPartsPrefix(u.getUploadId()), IteratorType.KEY_AND_VALUE)) {
      while (it.hasNext()) {
        list.add(it.next().getValue());
      }
    }
    for (PartInfo p : list) {
      s.append(" ").append(p.getPartNumber()).append("=").append(p.getObjectId()).append("/")
          .append(p.getSize()).append("/").append(p.getEtag());
    }
    return s.toString();
  }

  /** counters() equals a full recount and the model's counts, store-wide and per bucket. */
  void assertCounters() {
    Map<OmCounter, Long> counters = om.counters();
    assertEquals(om.countFromScan(), counters, "maintained counters vs a scan");
    assertEquals(model.expectedTotals(), counters, "maintained counters vs the model");
    for (String b : model.buckets.keySet()) {
      assertEquals(model.expectedBucket(b), om.bucketCounters(v, b), "counters of bucket " + b);
    }
  }

  /** Applies up to {@code n} of {@code ops}. */
  void applySome(Iterator<Op> ops, int n) {
    for (int i = 0; i < n && ops.hasNext(); i++) {
      apply(ops.next());
    }
  }
}
