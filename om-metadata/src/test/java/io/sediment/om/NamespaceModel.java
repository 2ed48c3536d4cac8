package io.sediment.om;

import static io.sediment.om.OmTestSupport.UTF8_ORDER;

import io.sediment.om.core.CursorSweep;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmKeys;
import io.sediment.om.fso.FsoPath;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.om.multipart.MultipartUploads;
import io.sediment.om.purge.OmPurges;
import io.sediment.om.purge.PurgeResult;
import io.sediment.proto.om.BucketLayout;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The reference model of one try of the cross-feature namespace tests: every om-metadata table
 * the try touches, as {@code TreeMap}s keyed by the table key in the store's order (UTF-8 bytes),
 * the purge cursors, and the expected outcome of every write, purge step and listing.
 *
 * <p>The model is table-level on purpose: the FSO namespace is kept as its directoryTable,
 * fileTable, openFileTable and deletedDirectoryTable rows (keyed by parent object id, as
 * {@link OmKeys} lays them out), so the subtree of a recursively deleted directory stays as rows
 * that no path reaches until the purge removes them, exactly as the store keeps them. Listings
 * are derived from those rows independently of the store's listing code (a depth-first walk from
 * the bucket root, children by name). The purge steps are modelled from their documented
 * contracts ({@link OmPurges}, {@link CursorSweep}, {@link io.sediment.om.fso.DirectoryPurge}): which rows a step
 * examines after its cursor (wrapping once), what it removes, where its cursor ends.
 *
 * <p>Write outcomes are two-phase: {@code predictX} returns the error code the store must throw
 * ({@code null}: success) without changing the model; {@code applyX} applies a successful write,
 * with whatever the store chose (ids, client ids) passed in.
 *
 * <p>The tables that are global (deleted, open, queue, multipart) hold only this try's rows: the
 * harness empties them in the store before a try starts. Not thread-safe.
 */
final class NamespaceModel {

  /** One listed item: {@code id} identifies (and orders) it, {@code value} is what must match. */
  record Item(String id, String value) {
    @Override
    public String toString() {
      return value.isEmpty() ? id : id + "|" + value;
    }
  }

  record BucketM(String name, BucketLayout layout, long volumeId, long objectId) {
    boolean fso() {
      return layout == BucketLayout.FILE_SYSTEM_OPTIMIZED;
    }
  }

  record KeyM(long objectId, long size) {
  }

  /** An open key (name = key) or open file (name = full path at open). */
  record OpenM(String bucket, String name, long clientId, long objectId, long created) {
  }

  record DeletedM(long objectId, long size) {
  }

  record PartM(long objectId, long size, String etag) {
  }

  record UploadM(String bucket, String key, String uploadId, long objectId, long created,
      TreeMap<Integer, PartM> parts) {
  }

  record DirM(String bucket, String name, long objectId, long parentId) {
  }

  record FileM(String bucket, String name, long objectId, long parentId, long size) {
  }

  /** A deletedDirectoryTable row: the directory, its bucket's ids and its path when deleted. */
  record QueuedM(String bucket, long volumeId, long bucketId, long objectId, String path) {
  }

  /** What a purge step of {@link OmPurges} must report. */
  record Sweep(List<String> examined, String nextCursor) {
  }

  final String volume;
  /** This try's volumes (the main one and spare ones). */
  final TreeMap<String, Boolean> volumes = new TreeMap<>(UTF8_ORDER);
  /** Buckets of {@link #volume} by name. */
  final TreeMap<String, BucketM> buckets = new TreeMap<>(UTF8_ORDER);

  final TreeMap<String, KeyM> keyTable = new TreeMap<>(UTF8_ORDER);
  final TreeMap<String, OpenM> openKeyTable = new TreeMap<>(UTF8_ORDER);
  final TreeMap<String, OpenM> openFileTable = new TreeMap<>(UTF8_ORDER);
  final TreeMap<String, DeletedM> deletedTable = new TreeMap<>(UTF8_ORDER);
  final TreeMap<String, QueuedM> deletedDirTable = new TreeMap<>(UTF8_ORDER);
  final TreeMap<String, UploadM> multipartTable = new TreeMap<>(UTF8_ORDER);
  final TreeMap<String, DirM> dirTable = new TreeMap<>(UTF8_ORDER);
  final TreeMap<String, FileM> fileTable = new TreeMap<>(UTF8_ORDER);
  /** snapshotInfoTable: key to ACTIVE (true) or DELETED (false). */
  final TreeMap<String, Boolean> snapshotTable = new TreeMap<>(UTF8_ORDER);
  /** The keys (name to row) each ACTIVE snapshot of an OBJECT_STORE/LEGACY bucket holds. */
  final Map<String, TreeMap<String, KeyM>> snapshotKeys = new java.util.HashMap<>();

  /** Store-wide counters before the try created anything. */
  final Map<OmCounter, Long> baseline;

  String keyCursor;
  String openKeyCursor;
  String openFileCursor;
  String uploadCursor;
  String dirCursor;

  NamespaceModel(String volume, Map<OmCounter, Long> baseline) {
    this.volume = volume;
    this.baseline = new EnumMap<>(baseline);
  }

  // ------------------------------------------------------------------------------------------
  // Helpers

  /** The entries of {@code table} whose keys start with {@code prefix}, in key order. */
  static <V> List<Map.Entry<String, V>> under(TreeMap<String, V> table, String prefix) {
    List<Map.Entry<String, V>> out = new ArrayList<>();
    for (Map.Entry<String, V> e : table.tailMap(prefix, true).entrySet()) {
      if (!e.getKey().startsWith(prefix)) {
        break;
      }
      out.add(Map.entry(e.getKey(), e.getValue()));
    }
    return out;
  }

  private static <V> void removeUnder(TreeMap<String, V> table, String prefix) {
    for (Map.Entry<String, V> e : under(table, prefix)) {
      table.remove(e.getKey());
    }
  }

  BucketM bucket(String name) {
    BucketM b = buckets.get(name);
    if (b == null) {
      throw new AssertionError("no bucket " + name + " in the model");
    }
    return b;
  }

  static List<String> components(String path) {
    return List.of(path.split("/"));
  }

  static String join(List<String> comps, int n) {
    return String.join("/", comps.subList(0, n));
  }

  String pathKey(BucketM b, long parent, String name) {
    return OmKeys.pathKey(b.volumeId(), b.objectId(), parent, name);
  }

  String childPrefix(BucketM b, long dirId) {
    return OmKeys.childPrefix(b.volumeId(), b.objectId(), dirId);
  }

  // ------------------------------------------------------------------------------------------
  // Volumes and buckets

  void addVolume(String name) {
    volumes.put(name, true);
  }

  /**
   * The code any OBJECT_STORE ({@code fso} false) or FSO operation on bucket {@code name} fails
   * with because of the bucket itself (missing: NOT_FOUND; other layout: UNIMPLEMENTED), or null.
   */
  Code bucketCode(String name, boolean fso) {
    BucketM b = buckets.get(name);
    return b == null ? Code.NOT_FOUND : b.fso() != fso ? Code.UNIMPLEMENTED : null;
  }

  void addBucket(String name, BucketLayout layout, long volumeId, long objectId) {
    buckets.put(name, new BucketM(name, layout, volumeId, objectId));
  }

  /**
   * Whether deleteBucket would find the bucket empty: no live key (FSO: no file or directory row,
   * including rows under recursively deleted directories not purged yet), no upload and no ACTIVE
   * snapshot.
   */
  boolean bucketDeletable(String name) {
    BucketM b = bucket(name);
    if (b.fso()) {
      String top = OmKeys.fsoBucketPrefix(b.volumeId(), b.objectId());
      if (!under(dirTable, top).isEmpty() || !under(fileTable, top).isEmpty()) {
        return false;
      }
    } else if (!under(keyTable, OmKeys.bucketPrefix(volume, name)).isEmpty()) {
      return false;
    }
    for (Map.Entry<String, Boolean> snap : under(snapshotTable, OmKeys.bucketPrefix(volume, name))) {
      if (snap.getValue()) {
        return false;
      }
    }
    return under(multipartTable, OmKeys.bucketPrefix(volume, name)).isEmpty();
  }

  /**
   * A deletable bucket goes; its open keys or files are discarded with it, and its (DELETED)
   * snapshot rows too.
   */
  void deleteBucket(String name) {
    BucketM b = buckets.remove(name);
    removeUnder(b.fso() ? openFileTable : openKeyTable, b.fso()
        ? OmKeys.fsoBucketPrefix(b.volumeId(), b.objectId()) : OmKeys.bucketPrefix(volume, name));
    removeUnder(snapshotTable, OmKeys.bucketPrefix(volume, name));
  }

  // ------------------------------------------------------------------------------------------
  // OBJECT_STORE / LEGACY keys

  void applyOpenKey(String b, String key, long clientId, long objectId, long now) {
    openKeyTable.put(OmKeys.openKey(volume, b, key, clientId),
        new OpenM(b, key, clientId, objectId, now));
  }

  Code predictCommitKey(String b, String key, long clientId) {
    return openKeyTable.containsKey(OmKeys.openKey(volume, b, key, clientId)) ? null
        : hasSession(openKeyTable, OmKeys.objectKey(volume, b, key)) ? Code.FAILED_PRECONDITION
        : Code.NOT_FOUND;
  }

  /** Whether {@code open} holds a session ({@code entryKey/<16 hex>}) of exactly that entry. */
  private static boolean hasSession(java.util.NavigableMap<String, ?> open, String entryKey) {
    String prefix = entryKey + OmKeys.SEPARATOR;
    for (String k : open.tailMap(prefix, true).keySet()) {
      if (!k.startsWith(prefix)) {
        return false;
      }
      String rest = k.substring(prefix.length());
      if (rest.length() == OmKeys.ID_WIDTH && rest.indexOf(OmKeys.SEPARATOR) < 0) {
        return true;
      }
    }
    return false;
  }

  /** Returns the committed row. */
  KeyM applyCommitKey(String b, String key, long clientId, long size) {
    OpenM open = openKeyTable.remove(OmKeys.openKey(volume, b, key, clientId));
    KeyM committed = new KeyM(open.objectId(), size);
    putKey(b, key, committed);
    return committed;
  }

  /** Puts a keyTable row; the version it replaces goes to deletedTable. */
  private void putKey(String b, String key, KeyM row) {
    KeyM previous = keyTable.put(OmKeys.objectKey(volume, b, key), row);
    if (previous != null) {
      toDeleted(b, key, previous.objectId(), previous.size());
    }
  }

  private void toDeleted(String b, String keyOrPath, long objectId, long size) {
    DeletedM old = deletedTable.put(OmKeys.deletedKey(volume, b, keyOrPath, objectId),
        new DeletedM(objectId, size));
    if (old != null) {
      throw new AssertionError("two deleted versions with object id " + objectId);
    }
  }

  Code predictDeleteKey(String b, String key) {
    return keyTable.containsKey(OmKeys.objectKey(volume, b, key)) ? null : Code.NOT_FOUND;
  }

  void applyDeleteKey(String b, String key) {
    KeyM k = keyTable.remove(OmKeys.objectKey(volume, b, key));
    toDeleted(b, key, k.objectId(), k.size());
  }

  Code predictRenameKey(String b, String from, String to) {
    if (keyTable.containsKey(OmKeys.objectKey(volume, b, to))) {
      return Code.ALREADY_EXISTS;
    }
    return keyTable.containsKey(OmKeys.objectKey(volume, b, from)) ? null : Code.NOT_FOUND;
  }

  void applyRenameKey(String b, String from, String to) {
    keyTable.put(OmKeys.objectKey(volume, b, to),
        keyTable.remove(OmKeys.objectKey(volume, b, from)));
  }

  KeyM key(String b, String key) {
    return keyTable.get(OmKeys.objectKey(volume, b, key));
  }

  // ------------------------------------------------------------------------------------------
  // Multipart uploads

  UploadM upload(String b, String key, String uploadId) {
    return multipartTable.get(OmKeys.multipartKey(volume, b, key, uploadId));
  }

  void applyInitiate(String b, String key, String uploadId, long now) {
    multipartTable.put(OmKeys.multipartKey(volume, b, key, uploadId), new UploadM(b, key,
        uploadId, OmKeys.parseId(uploadId), now, new TreeMap<>()));
  }

  Code predictUploadExists(String b, String key, String uploadId) {
    return upload(b, key, uploadId) == null ? Code.NOT_FOUND : null;
  }

  void applyCommitPart(String b, String key, String uploadId, int partNumber, PartM part) {
    PartM replaced = upload(b, key, uploadId).parts().put(partNumber, part);
    if (replaced != null) {
      toDeleted(b, key, replaced.objectId(), replaced.size());
    }
  }

  /** INVALID_ARGUMENT for a part list that is wrong whatever the upload (checked first). */
  static Code checkPartList(List<CompletedPart> parts) {
    if (parts.isEmpty()) {
      return Code.INVALID_ARGUMENT;
    }
    int previous = 0;
    for (CompletedPart p : parts) {
      if (p.partNumber() <= previous || p.partNumber() > MultipartUploads.MAX_PART_NUMBER
          || p.etag() == null || p.etag().isEmpty()) {
        return Code.INVALID_ARGUMENT;
      }
      previous = p.partNumber();
    }
    return null;
  }

  /** The code a completion with {@code parts} must fail with (bucket checked), or null. */
  Code predictComplete(String b, String key, String uploadId, List<CompletedPart> parts) {
    UploadM u = upload(b, key, uploadId);
    if (u == null) {
      return Code.NOT_FOUND;
    }
    for (int i = 0; i < parts.size(); i++) {
      PartM have = u.parts().get(parts.get(i).partNumber());
      if (have == null || !unquote(have.etag()).equals(unquote(parts.get(i).etag()))
          || (i < parts.size() - 1 && have.size() < MultipartUploads.MIN_PART_SIZE)) {
        return Code.INVALID_ARGUMENT;
      }
    }
    return null;
  }

  private static String unquote(String etag) {
    return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")
        ? etag.substring(1, etag.length() - 1) : etag;
  }

  /** Returns the committed key row. */
  KeyM applyComplete(String b, String key, String uploadId, List<CompletedPart> parts) {
    UploadM u = multipartTable.remove(OmKeys.multipartKey(volume, b, key, uploadId));
    long total = 0;
    TreeMap<Integer, PartM> left = new TreeMap<>(u.parts());
    for (CompletedPart p : parts) {
      total += left.remove(p.partNumber()).size();
    }
    KeyM committed = new KeyM(u.objectId(), total);
    putKey(b, key, committed);
    for (PartM p : left.values()) {
      toDeleted(b, key, p.objectId(), p.size());
    }
    return committed;
  }

  void applyAbort(String b, String key, String uploadId) {
    discard(multipartTable.remove(OmKeys.multipartKey(volume, b, key, uploadId)));
  }

  private long discard(UploadM u) {
    long bytes = 0;
    for (PartM p : u.parts().values()) {
      toDeleted(u.bucket(), u.key(), p.objectId(), p.size());
      bytes += p.size();
    }
    return bytes;
  }

  // ------------------------------------------------------------------------------------------
  // Snapshots

  Code predictCreateSnapshot(String b, String name) {
    Boolean active = snapshotTable.get(OmKeys.snapshotKey(volume, b, name));
    return active != null && active ? Code.ALREADY_EXISTS : null;
  }

  void applyCreateSnapshot(String b, String name) {
    String key = OmKeys.snapshotKey(volume, b, name);
    snapshotTable.put(key, true);
    if (!bucket(b).fso()) {
      String base = OmKeys.bucketPrefix(volume, b);
      TreeMap<String, KeyM> frozen = new TreeMap<>(UTF8_ORDER);
      for (Map.Entry<String, KeyM> e : under(keyTable, base)) {
        frozen.put(e.getKey().substring(base.length()), e.getValue());
      }
      snapshotKeys.put(key, frozen);
    }
  }

  Code predictDeleteSnapshot(String b, String name) {
    Boolean active = snapshotTable.get(OmKeys.snapshotKey(volume, b, name));
    return active != null && active ? null : Code.NOT_FOUND;
  }

  void applyDeleteSnapshot(String b, String name) {
    snapshotTable.put(OmKeys.snapshotKey(volume, b, name), false);
    snapshotKeys.remove(OmKeys.snapshotKey(volume, b, name));
  }

  // ------------------------------------------------------------------------------------------
  // FSO

  /** The parent directory id of {@code comps}, or the code resolving it fails with. */
  record Resolved(Code code, long parentId) {
  }

  Resolved resolveParent(BucketM b, List<String> comps, Code fileInTheWay) {
    long parent = b.objectId();
    for (int i = 0; i < comps.size() - 1; i++) {
      String k = pathKey(b, parent, comps.get(i));
      DirM d = dirTable.get(k);
      if (d == null) {
        return new Resolved(fileTable.containsKey(k) ? fileInTheWay : Code.NOT_FOUND, 0);
      }
      parent = d.objectId();
    }
    return new Resolved(null, parent);
  }

  /** The directory id at {@code path} ({@code ""}: the bucket), or null if it is no directory. */
  Long dirId(BucketM b, String path) {
    if (path.isEmpty()) {
      return b.objectId();
    }
    long parent = b.objectId();
    for (String c : components(path)) {
      DirM d = dirTable.get(pathKey(b, parent, c));
      if (d == null) {
        return null;
      }
      parent = d.objectId();
    }
    return parent;
  }

  /** The file row at {@code path}, or null. */
  FileM file(BucketM b, String path) {
    List<String> comps = components(path);
    Resolved r = resolveParent(b, comps, Code.NOT_FOUND);
    return r.code() != null ? null
        : fileTable.get(pathKey(b, r.parentId(), comps.get(comps.size() - 1)));
  }

  /**
   * The outcome of {@code mkdir -p path}; on success {@link #firstMissing} tells which
   * components the store creates.
   */
  Code predictMkdir(BucketM b, String path) {
    List<String> comps = components(path);
    long parent = b.objectId();
    for (int i = 0; i < comps.size(); i++) {
      String k = pathKey(b, parent, comps.get(i));
      DirM d = dirTable.get(k);
      if (d != null) {
        parent = d.objectId();
        continue;
      }
      if (fileTable.containsKey(k)) {
        return i == comps.size() - 1 ? Code.ALREADY_EXISTS : Code.FAILED_PRECONDITION;
      }
      return null;
    }
    return null;
  }

  /** The index of the first of {@code comps[0, upTo)} that is not a directory, or upTo. */
  int firstMissing(BucketM b, List<String> comps, int upTo) {
    long parent = b.objectId();
    for (int i = 0; i < upTo; i++) {
      DirM d = dirTable.get(pathKey(b, parent, comps.get(i)));
      if (d == null) {
        return i;
      }
      parent = d.objectId();
    }
    return upTo;
  }

  void addDir(BucketM b, long parentId, String name, long objectId) {
    DirM old = dirTable.put(pathKey(b, parentId, name), new DirM(b.name(), name, objectId,
        parentId));
    if (old != null) {
      throw new AssertionError("directory " + name + " under " + parentId + " exists");
    }
  }

  Code predictCreateFile(BucketM b, String path) {
    List<String> comps = components(path);
    long parent = b.objectId();
    for (int i = 0; i < comps.size() - 1; i++) {
      String k = pathKey(b, parent, comps.get(i));
      DirM d = dirTable.get(k);
      if (d == null) {
        return fileTable.containsKey(k) ? Code.FAILED_PRECONDITION : null;
      }
      parent = d.objectId();
    }
    return dirTable.containsKey(pathKey(b, parent, comps.get(comps.size() - 1)))
        ? Code.ALREADY_EXISTS : null;
  }

  void applyOpenFile(BucketM b, String path, long parentId, long clientId, long objectId,
      long now) {
    List<String> comps = components(path);
    openFileTable.put(OmKeys.openFileKey(b.volumeId(), b.objectId(), parentId,
        comps.get(comps.size() - 1), clientId), new OpenM(b.name(), path, clientId, objectId,
        now));
  }

  Code predictCommitFile(BucketM b, String path, long clientId) {
    List<String> comps = components(path);
    Resolved r = resolveParent(b, comps, Code.FAILED_PRECONDITION);
    if (r.code() != null) {
      return r.code();
    }
    String leaf = comps.get(comps.size() - 1);
    if (!openFileTable.containsKey(OmKeys.openFileKey(b.volumeId(), b.objectId(), r.parentId(),
        leaf, clientId))) {
      return hasSession(openFileTable, pathKey(b, r.parentId(), leaf))
          ? Code.FAILED_PRECONDITION : Code.NOT_FOUND;
    }
    return dirTable.containsKey(pathKey(b, r.parentId(), leaf)) ? Code.FAILED_PRECONDITION : null;
  }

  /** Returns the committed file row. */
  FileM applyCommitFile(BucketM b, String path, long clientId, long size) {
    List<String> comps = components(path);
    long parent = resolveParent(b, comps, Code.FAILED_PRECONDITION).parentId();
    String leaf = comps.get(comps.size() - 1);
    OpenM open = openFileTable.remove(OmKeys.openFileKey(b.volumeId(), b.objectId(), parent,
        leaf, clientId));
    FileM committed = new FileM(b.name(), leaf, open.objectId(), parent, size);
    FileM previous = fileTable.put(pathKey(b, parent, leaf), committed);
    if (previous != null) {
      toDeleted(b.name(), path, previous.objectId(), previous.size());
    }
    return committed;
  }

  Code predictDeleteFile(BucketM b, String path) {
    List<String> comps = components(path);
    Resolved r = resolveParent(b, comps, Code.NOT_FOUND);
    if (r.code() != null) {
      return r.code();
    }
    String k = pathKey(b, r.parentId(), comps.get(comps.size() - 1));
    return fileTable.containsKey(k) ? null
        : dirTable.containsKey(k) ? Code.FAILED_PRECONDITION : Code.NOT_FOUND;
  }

  void applyDeleteFile(BucketM b, String path) {
    List<String> comps = components(path);
    long parent = resolveParent(b, comps, Code.NOT_FOUND).parentId();
    FileM f = fileTable.remove(pathKey(b, parent, comps.get(comps.size() - 1)));
    toDeleted(b.name(), path, f.objectId(), f.size());
  }

  Code predictDeleteDir(BucketM b, String path, boolean recursive) {
    List<String> comps = components(path);
    Resolved r = resolveParent(b, comps, Code.NOT_FOUND);
    if (r.code() != null) {
      return r.code();
    }
    String k = pathKey(b, r.parentId(), comps.get(comps.size() - 1));
    DirM d = dirTable.get(k);
    if (d == null) {
      return fileTable.containsKey(k) ? Code.FAILED_PRECONDITION : Code.NOT_FOUND;
    }
    return isEmptyDir(b, d.objectId()) || recursive ? null : Code.FAILED_PRECONDITION;
  }

  private boolean isEmptyDir(BucketM b, long dirId) {
    String children = childPrefix(b, dirId);
    return under(dirTable, children).isEmpty() && under(fileTable, children).isEmpty();
  }

  void applyDeleteDir(BucketM b, String path) {
    List<String> comps = components(path);
    long parent = resolveParent(b, comps, Code.NOT_FOUND).parentId();
    DirM d = dirTable.remove(pathKey(b, parent, comps.get(comps.size() - 1)));
    if (isEmptyDir(b, d.objectId())) {
      removeUnder(openFileTable, childPrefix(b, d.objectId()));
    } else {
      deletedDirTable.put(OmKeys.deletedDirectoryKey(b.volumeId(), b.objectId(), parent,
          d.name(), d.objectId()), new QueuedM(b.name(), b.volumeId(), b.objectId(),
          d.objectId(), path));
    }
  }

  static boolean isAncestor(String ancestor, String path) {
    return path.startsWith(ancestor + "/");
  }

  Code predictRename(BucketM b, String from, String to) {
    if (isAncestor(from, to)) {
      return Code.INVALID_ARGUMENT;
    }
    List<String> f = components(from);
    Resolved rf = resolveParent(b, f, Code.NOT_FOUND);
    if (rf.code() != null) {
      return rf.code();
    }
    String fromKey = pathKey(b, rf.parentId(), f.get(f.size() - 1));
    if (!dirTable.containsKey(fromKey) && !fileTable.containsKey(fromKey)) {
      return Code.NOT_FOUND;
    }
    List<String> t = components(to);
    Resolved rt = resolveParent(b, t, Code.FAILED_PRECONDITION);
    if (rt.code() != null) {
      return rt.code();
    }
    String toKey = pathKey(b, rt.parentId(), t.get(t.size() - 1));
    return dirTable.containsKey(toKey) || fileTable.containsKey(toKey)
        ? Code.ALREADY_EXISTS : null;
  }

  void applyRename(BucketM b, String from, String to) {
    List<String> f = components(from);
    List<String> t = components(to);
    String fromKey = pathKey(b, resolveParent(b, f, Code.NOT_FOUND).parentId(),
        f.get(f.size() - 1));
    long toParent = resolveParent(b, t, Code.FAILED_PRECONDITION).parentId();
    String leaf = t.get(t.size() - 1);
    DirM d = dirTable.remove(fromKey);
    if (d != null) {
      dirTable.put(pathKey(b, toParent, leaf), new DirM(b.name(), leaf, d.objectId(), toParent));
      return;
    }
    FileM file = fileTable.remove(fromKey);
    fileTable.put(pathKey(b, toParent, leaf), new FileM(b.name(), leaf, file.objectId(),
        toParent, file.size()));
  }

  /** Every visible path of an FSO bucket with whether it is a directory, in listing order. */
  List<Item> fsoListing(BucketM b, String dirPath, long dirId, boolean recursive) {
    List<Item> out = new ArrayList<>();
    walk(b, dirPath, dirId, recursive, out);
    return out;
  }

  private void walk(BucketM b, String dirPath, long dirId, boolean recursive, List<Item> out) {
    String prefix = childPrefix(b, dirId);
    TreeMap<String, Object> children = new TreeMap<>(UTF8_ORDER);
    for (Map.Entry<String, DirM> e : under(dirTable, prefix)) {
      children.put(e.getValue().name(), e.getValue());
    }
    for (Map.Entry<String, FileM> e : under(fileTable, prefix)) {
      children.put(e.getValue().name(), e.getValue());
    }
    for (Map.Entry<String, Object> c : children.entrySet()) {
      String path = FsoPath.join(dirPath, c.getKey());
      if (c.getValue() instanceof DirM d) {
        out.add(dirItem(path, d.objectId()));
        if (recursive) {
          walk(b, path, d.objectId(), true, out);
        }
      } else {
        FileM f = (FileM) c.getValue();
        out.add(fileItem(path, f.objectId(), f.size()));
      }
    }
  }

  static Item dirItem(String path, long objectId) {
    return new Item("D:" + path, "#" + objectId);
  }

  static Item fileItem(String path, long objectId, long size) {
    return new Item("F:" + path, "#" + objectId + "/" + size);
  }

  /** The visible directories of an FSO bucket ({@code ""} first). */
  List<String> visibleDirs(BucketM b) {
    List<String> out = new ArrayList<>();
    out.add("");
    for (Item i : fsoListing(b, "", b.objectId(), true)) {
      if (i.id().startsWith("D:")) {
        out.add(i.id().substring(2));
      }
    }
    return out;
  }

  // ------------------------------------------------------------------------------------------
  // Purge steps

  /**
   * The rows of {@code table} one run examines after {@code cursor} (exclusive), wrapping once to
   * the head up to the cursor (exclusive), at most {@code limit}; and the cursor after the run.
   */
  static <V> Sweep sweep(TreeMap<String, V> table, String cursor, int limit) {
    List<String> tail = new ArrayList<>();
    for (String k : (cursor == null ? table : table.tailMap(cursor, false)).keySet()) {
      if (tail.size() == limit) {
        break;
      }
      tail.add(k);
    }
    if (tail.size() == limit) {
      return new Sweep(tail, tail.get(tail.size() - 1));
    }
    if (cursor == null) {
      return new Sweep(tail, null);
    }
    List<String> head = new ArrayList<>();
    for (String k : table.headMap(cursor, false).keySet()) {
      if (tail.size() + head.size() == limit) {
        break;
      }
      head.add(k);
    }
    List<String> all = new ArrayList<>(tail);
    all.addAll(head);
    return new Sweep(all, all.size() == limit && !head.isEmpty()
        ? head.get(head.size() - 1) : null);
  }

  /**
   * Range tombstones a step writes for the removed rows: one per maximal run of at least
   * {@link CursorSweep#RANGE_DELETE_MIN_ROWS} consecutive removed rows within a segment (the
   * segments are the rows after the cursor and the rows before it).
   */
  static int rangeDeletes(List<String> examined, java.util.function.Predicate<String> removed,
      String cursor) {
    int ranges = 0;
    int run = 0;
    boolean inTail = true;
    for (String k : examined) {
      boolean tail = cursor == null || UTF8_ORDER.compare(k, cursor) > 0;
      if (tail != inTail) {
        ranges += run >= CursorSweep.RANGE_DELETE_MIN_ROWS ? 1 : 0;
        run = 0;
        inTail = tail;
      }
      if (removed.test(k)) {
        run++;
      } else {
        ranges += run >= CursorSweep.RANGE_DELETE_MIN_ROWS ? 1 : 0;
        run = 0;
      }
    }
    return ranges + (run >= CursorSweep.RANGE_DELETE_MIN_ROWS ? 1 : 0);
  }

  /** The expected result of {@link OmPurges#purgeDeletedKeys}; applies it. */
  PurgeResult purgeDeletedKeys(int limit) {
    if (deletedTable.isEmpty()) {
      return new PurgeResult(OmPurges.KEY_DELETING, 0, 0, 0, 0, keyCursor, true);
    }
    String cursor = keyCursor;
    Sweep s = sweep(deletedTable, cursor, limit);
    long bytes = 0;
    for (String k : s.examined()) {
      bytes += deletedTable.remove(k).size();
    }
    keyCursor = s.nextCursor();
    return new PurgeResult(OmPurges.KEY_DELETING, s.examined().size(), s.examined().size(), bytes,
        rangeDeletes(s.examined(), k -> true, cursor), s.nextCursor(), false);
  }

  /** The expected result of expireOpenKeys (files: expireOpenFiles); applies it. */
  PurgeResult expireOpen(boolean files, long now, long thresholdMillis, int limit) {
    TreeMap<String, OpenM> table = files ? openFileTable : openKeyTable;
    String step = files ? OmPurges.OPEN_FILE_CLEANUP : OmPurges.OPEN_KEY_CLEANUP;
    String cursor = files ? openFileCursor : openKeyCursor;
    if (table.isEmpty()) {
      return new PurgeResult(step, 0, 0, 0, 0, cursor, true);
    }
    Sweep s = sweep(table, cursor, limit);
    List<String> expired = new ArrayList<>();
    for (String k : s.examined()) {
      if (table.get(k).created() <= now - thresholdMillis) {
        expired.add(k);
      }
    }
    int ranges = rangeDeletes(s.examined(), expired::contains, cursor);
    expired.forEach(table::remove);
    if (files) {
      openFileCursor = s.nextCursor();
    } else {
      openKeyCursor = s.nextCursor();
    }
    return new PurgeResult(step, s.examined().size(), expired.size(), 0, ranges, s.nextCursor(),
        false);
  }

  /** The expected result of abortExpiredUploads; applies it. */
  PurgeResult abortExpiredUploads(long now, long thresholdMillis, int limit) {
    String step = OmPurges.MULTIPART_UPLOAD_CLEANUP;
    if (multipartTable.isEmpty()) {
      return new PurgeResult(step, 0, 0, 0, 0, uploadCursor, true);
    }
    String cursor = uploadCursor;
    Sweep s = sweep(multipartTable, cursor, limit);
    List<String> expired = new ArrayList<>();
    for (String k : s.examined()) {
      if (multipartTable.get(k).created() <= now - thresholdMillis) {
        expired.add(k);
      }
    }
    int ranges = rangeDeletes(s.examined(), expired::contains, cursor);
    long bytes = 0;
    for (String k : expired) {
      bytes += discard(multipartTable.remove(k));
    }
    uploadCursor = s.nextCursor();
    return new PurgeResult(step, s.examined().size(), expired.size(), bytes, ranges,
        s.nextCursor(), false);
  }

  /** Whether a run of the given expiry step could still remove something. */
  boolean anyExpired(TreeMap<String, ?> table, long now, long thresholdMillis) {
    for (Object v : table.values()) {
      long created = v instanceof OpenM o ? o.created() : ((UploadM) v).created();
      if (created <= now - thresholdMillis) {
        return true;
      }
    }
    return false;
  }

  /** One step of {@link io.sediment.om.fso.DirectoryPurge}: returns the entries it removes; applies it. */
  int purgeDeletedDirectories(int budget) {
    return new DirStep(budget).run();
  }

  /** The directory purge step, as DirectoryPurge's class comment specifies it. */
  private final class DirStep {
    private final int budget;
    private int used;

    DirStep(int budget) {
      this.budget = budget;
    }

    int run() {
      // Copies: a TreeMap entry can take its successor's key and value when it is removed.
      List<Map.Entry<String, QueuedM>> rows = new ArrayList<>();
      deletedDirTable.forEach((k, q) -> rows.add(Map.entry(k, q)));
      String cursor = dirCursor;
      List<Map.Entry<String, QueuedM>> after = new ArrayList<>();
      List<Map.Entry<String, QueuedM>> before = new ArrayList<>();
      for (Map.Entry<String, QueuedM> r : rows) {
        int c = cursor == null ? 1 : UTF8_ORDER.compare(r.getKey(), cursor);
        if (c > 0) {
          after.add(r);
        } else if (c < 0) {
          before.add(r);
        }
      }
      String newCursor = cursor;
      boolean reset = false;
      String[] last = pass(after);
      if (last[0] != null) {
        newCursor = last[0];
      }
      if (used < budget && cursor != null) {
        String[] second = pass(before);
        if (second[0] != null) {
          newCursor = second[0];
        } else if (second[1] != null) {
          reset = true;
        }
      }
      dirCursor = reset ? null : newCursor;
      return used;
    }

    /** Returns {last finished key or null, non-null if it stopped inside a row}. */
    private String[] pass(List<Map.Entry<String, QueuedM>> rows) {
      String last = null;
      for (Map.Entry<String, QueuedM> row : rows) {
        if (used >= budget) {
          break;
        }
        if (!purge(row.getValue())) {
          return new String[] {last, "stopped"};
        }
        deletedDirTable.remove(row.getKey());
        last = row.getKey();
      }
      return new String[] {last, null};
    }

    private boolean purge(QueuedM dir) {
      // The bucket may be gone (an empty queued directory can outlive it): use the row's ids.
      if (!purgeBelow(dir, dir.objectId(), dir.path()) || used >= budget) {
        return false;
      }
      used++;
      return true;
    }

    /**
     * Depth first below directory {@code dirId} at {@code path}: its files, its open files, then
     * each subdirectory in key order, finished (its row removed, one unit) before the next.
     *
     * @return whether nothing is left below it
     */
    private boolean purgeBelow(QueuedM root, long dirId, String path) {
      String children = OmKeys.childPrefix(root.volumeId(), root.bucketId(), dirId);
      if (!drain(fileTable, children, f -> toDeleted(root.bucket(),
          FsoPath.join(path, f.name()), f.objectId(), f.size()))) {
        return false;
      }
      if (!drain(openFileTable, children, o -> { })) {
        return false;
      }
      for (Map.Entry<String, DirM> sub : under(dirTable, children)) {
        if (used >= budget
            || !purgeBelow(root, sub.getValue().objectId(), FsoPath.join(path, sub.getValue().name()))
            || used >= budget) {
          return false;
        }
        dirTable.remove(sub.getKey());
        used++;
      }
      return true;
    }

    private <V> boolean drain(TreeMap<String, V> table, String prefix, Consumer<V> onRow) {
      List<Map.Entry<String, V>> rows = under(table, prefix);
      int read = 0;
      while (used < budget && read < rows.size()) {
        onRow.accept(rows.get(read).getValue());
        table.remove(rows.get(read).getKey());
        used++;
        read++;
      }
      return read == rows.size();
    }
  }

  // ------------------------------------------------------------------------------------------
  // Counters

  /** The store-wide counters the store must report: the baseline plus this try's rows. */
  Map<OmCounter, Long> expectedTotals() {
    Map<OmCounter, Long> out = new EnumMap<>(baseline);
    Map<OmCounter, Long> local = countRows(null);
    local.put(OmCounter.VOLUMES, (long) volumes.size());
    local.put(OmCounter.BUCKETS, (long) buckets.size());
    local.put(OmCounter.SNAPSHOTS, (long) snapshotTable.size());
    local.forEach((c, n) -> out.merge(c, n, Long::sum));
    return out;
  }

  /** The counters of one bucket: its rows in every table it owns, zero for the others. */
  Map<OmCounter, Long> expectedBucket(String name) {
    return countRows(bucket(name));
  }

  /**
   * Counts rows; for one bucket, a row keyed by names counts only if its object id is newer than
   * the bucket's (older ones belong to an earlier, deleted bucket of the same name).
   */
  private Map<OmCounter, Long> countRows(BucketM only) {
    Map<OmCounter, Long> out = new EnumMap<>(OmCounter.class);
    for (OmCounter c : OmCounter.values()) {
      out.put(c, 0L);
    }
    String names = only == null ? "/" : OmKeys.bucketPrefix(volume, only.name());
    String ids = only == null ? "/" : OmKeys.fsoBucketPrefix(only.volumeId(), only.objectId());
    long newerThan = only == null ? 0 : only.objectId();
    for (Map.Entry<String, KeyM> e : under(keyTable, names)) {
      if (e.getValue().objectId() > newerThan) {
        out.merge(OmCounter.KEYS, 1L, Long::sum);
        out.merge(OmCounter.KEY_BYTES, e.getValue().size(), Long::sum);
      }
    }
    for (Map.Entry<String, FileM> e : under(fileTable, ids)) {
      out.merge(OmCounter.FILES, 1L, Long::sum);
      out.merge(OmCounter.FILE_BYTES, e.getValue().size(), Long::sum);
    }
    out.put(OmCounter.DIRECTORIES, (long) under(dirTable, ids).size());
    out.put(OmCounter.OPEN_KEYS, under(openKeyTable, names).stream()
        .filter(e -> e.getValue().objectId() > newerThan).count());
    out.put(OmCounter.OPEN_FILES, (long) under(openFileTable, ids).size());
    for (Map.Entry<String, DeletedM> e : under(deletedTable, names)) {
      if (e.getValue().objectId() > newerThan) {
        out.merge(OmCounter.DELETED_KEYS, 1L, Long::sum);
        out.merge(OmCounter.DELETED_KEY_BYTES, e.getValue().size(), Long::sum);
      }
    }
    out.put(OmCounter.DELETED_DIRECTORIES, (long) under(deletedDirTable, ids).size());
    out.put(OmCounter.MULTIPART_UPLOADS, under(multipartTable, names).stream()
        .filter(e -> e.getValue().objectId() > newerThan).count());
    return out;
  }
}
