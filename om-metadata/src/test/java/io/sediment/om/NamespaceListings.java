package io.sediment.om;

import static io.sediment.om.NamespaceHarness.BUCKET_PREFIXES;
import static io.sediment.om.NamespaceHarness.DELIMITERS;
import static io.sediment.om.NamespaceHarness.FSO;
import static io.sediment.om.NamespaceHarness.NAMES;
import static io.sediment.om.NamespaceHarness.OBS;
import static io.sediment.om.NamespaceHarness.PREFIXES;
import static io.sediment.om.NamespaceHarness.SNAPSHOTS;
import static io.sediment.om.NamespaceHarness.SNAPSHOT_PREFIXES;
import static io.sediment.om.OmTestSupport.UTF8_ORDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.NamespaceModel.BucketM;
import io.sediment.om.NamespaceModel.FileM;
import io.sediment.om.NamespaceModel.Item;
import io.sediment.om.NamespaceModel.KeyM;
import io.sediment.om.NamespaceModel.OpenM;
import io.sediment.om.NamespaceModel.UploadM;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.fso.FsoPath;
import io.sediment.om.listing.ListObjectsV1Request;
import io.sediment.om.listing.ListObjectsV1Result;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.om.multipart.MultipartUploadListing;
import io.sediment.om.multipart.PartListing;
import io.sediment.om.openfiles.OpenFileEntry;
import io.sediment.om.openfiles.OpenFilesPage;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.PartInfo;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.SnapshotStatus;
import io.sediment.proto.om.VolumeInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every paged listing of one try of the cross-feature namespace properties, each as a
 * {@link Lister}: the request, its cursor state, the model's prediction of what follows the
 * cursor at this moment, and how a page the store returns moves the cursor (tokens, start-after,
 * markers, as a client pages). {@link #drive} pages through one with random page sizes and
 * checks every page against the model's prediction at the moment it is read.
 */
final class NamespaceListings {

  private final OmMetadataStore om;
  private final String v;
  private final NamespaceModel model;
  private final NavigableSet<String> allVolumes;
  private final int cap;

  NamespaceListings(NamespaceHarness h) {
    this.om = h.om;
    this.v = h.v;
    this.model = h.model;
    this.allVolumes = h.allVolumes;
    this.cap = h.cap;
  }


  /** One page as read: its items, whether the store said more follow. */
  record Page(List<Item> items, boolean more) {
  }

  /** The model's answer for the next page: an error the store must throw, or the items left. */
  record Expect(Code error, List<Item> items) {
    static Expect of(List<Item> items) {
      return new Expect(null, items);
    }
  }

  /**
   * One paged listing in progress: its request, its cursor state, the model's prediction of
   * what follows the cursor, and how the store's page advances the cursor.
   */
  abstract class Lister {
    final String label;
    /** The listed bucket; null for volumes and buckets. */
    final String bucket;

    Lister(String label, String bucket) {
      this.label = label;
      this.bucket = bucket;
    }

    /** Whether page sizes above the cap are clamped (S3 listings) rather than rejected. */
    boolean clamps() {
      return false;
    }

    /** The model's items after the current cursor, now. */
    abstract Expect expected();

    /** The model's items after the initial cursor, now. */
    abstract List<Item> fromStart();

    /** Reads one page at the current cursor; checks the page's own consistency. */
    abstract Page read(int max);

    /** Moves the cursor past {@code page} (which had more). */
    abstract void advance(Page page);

    /** The listing's order over item ids. */
    abstract Comparator<String> order();

    @Override
    public String toString() {
      return label;
    }
  }

  /**
   * What one paged listing saw, read by read (for the interleaving checks): the ids the model
   * listed from the initial cursor at each read, the ids it expected after the cursor, and the
   * pages; a listing whose path disappeared ends with a failed read ({@code failed}), logged as
   * a read at which none of its items is present.
   */
  static final class PagingLog {
    boolean failed;
    final List<Set<String>> fromStartIds = new ArrayList<>();
    final List<List<String>> expectedIds = new ArrayList<>();
    final List<Page> pages = new ArrayList<>();
  }

  private static Set<String> ids(List<Item> items) {
    Set<String> out = new HashSet<>();
    items.forEach(i -> out.add(i.id()));
    return out;
  }

  private static List<String> idList(List<Item> items) {
    List<String> out = new ArrayList<>();
    items.forEach(i -> out.add(i.id()));
    return out;
  }

  /**
   * Pages through {@code lister} with random page sizes; every page must be exactly the first
   * {@code min(max, cap)} items the model has after the cursor at that moment, and say "more"
   * exactly when the model has further items. {@code between} runs between pages. Returns the
   * concatenated items.
   */
  List<Item> drive(Lister lister, Random random, Runnable between, PagingLog log) {
    return drive(lister, random, between, log, lister.clamps() ? cap + 3 : cap);
  }

  /** As {@link #drive(Lister, Random, Runnable, PagingLog)}, page sizes 1 to {@code maxPage}. */
  List<Item> drive(Lister lister, Random random, Runnable between, PagingLog log, int maxPage) {
    List<Item> out = new ArrayList<>();
    for (int guard = 0; ; guard++) {
      assertTrue(guard < 10_000, "runaway paging of " + lister);
      Expect e = lister.expected();
      int max = 1 + random.nextInt(maxPage);
      int effective = Math.min(max, cap);
      if (e.error() != null) {
        OmException x = assertThrows(OmException.class, () -> lister.read(max),
            lister + ": page " + guard + " must fail with " + e.error());
        assertEquals(e.error(), x.code(), () -> lister + ": " + x.getMessage());
        if (log != null) {
          // The listed path is gone: at this read, nothing of the listing is present.
          log.fromStartIds.add(Set.of());
          log.failed = true;
        }
        return out;
      }
      if (log != null) {
        log.fromStartIds.add(ids(lister.fromStart()));
        log.expectedIds.add(idList(e.items()));
      }
      Page page = lister.read(max);
      if (log != null) {
        log.pages.add(page);
      }
      List<Item> want = e.items().subList(0, Math.min(effective, e.items().size()));
      assertEquals(want, page.items(), lister + ": page " + guard + " of size " + max);
      assertEquals(e.items().size() > effective, page.more(),
          lister + ": page " + guard + " must say more exactly when items follow");
      out.addAll(page.items());
      if (!page.more()) {
        return out;
      }
      lister.advance(page);
      between.run();
    }
  }

  /** Pages through {@code lister} with no write in between; the pages concatenate to the model. */
  void checkListing(Lister lister, Random random) {
    List<Item> all = lister.fromStart();
    Expect first = lister.expected();
    List<Item> got = drive(lister, random, () -> { }, null);
    if (first.error() == null) {
      assertEquals(all, got, lister + ": the pages concatenate to the model's listing");
    }
  }

  static Comparator<String> byName() {
    return (a, b) -> UTF8_ORDER.compare(a.substring(2), b.substring(2));
  }

  // ---- OBJECT_STORE listings ----

  private Item keyItem(String name, long objectId, long size) {
    return new Item("K:" + name, "#" + objectId + "/" + size);
  }

  /** The model's keys of {@code b} with {@code prefix} after a cursor, rolled up at a delimiter. */
  List<Item> modelKeys(String b, String prefix, String delimiter, String cursor,
      boolean cursorIsPrefix) {
    String base = OmKeys.bucketPrefix(v, b);
    List<Item> out = new ArrayList<>();
    String lastPrefix = null;
    for (Map.Entry<String, KeyM> e : NamespaceModel.under(model.keyTable, base + prefix)) {
      String name = e.getKey().substring(base.length());
      if (cursor != null && (UTF8_ORDER.compare(name, cursor) <= 0
          || (cursorIsPrefix && name.startsWith(cursor)))) {
        continue;
      }
      if (delimiter != null) {
        int at = name.indexOf(delimiter, prefix.length());
        if (at >= 0) {
          String common = name.substring(0, at + delimiter.length());
          if (!common.equals(lastPrefix)) {
            out.add(new Item("P:" + common, ""));
            lastPrefix = common;
          }
          continue;
        }
      }
      out.add(keyItem(name, e.getValue().objectId(), e.getValue().size()));
    }
    return out;
  }

  private List<Item> merged(List<KeyInfo> contents, List<String> prefixes) {
    List<Item> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < contents.size() || j < prefixes.size()) {
      if (j >= prefixes.size() || (i < contents.size()
          && UTF8_ORDER.compare(contents.get(i).getKeyName(), prefixes.get(j)) < 0)) {
        KeyInfo k = contents.get(i++);
        out.add(keyItem(k.getKeyName(), k.getObjectId(), k.getDataSize()));
      } else {
        out.add(new Item("P:" + prefixes.get(j++), ""));
      }
    }
    return out;
  }

  private static String nameOf(Item item) {
    return item.id().substring(2);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  /** listKeys paged with tokens (the token of each page read is kept). */
  Lister listKeysWithTokens(String b, String prefix, String startAfter) {
    return new Lister("listKeys(" + b + ", prefix=" + prefix + ", startAfter=" + startAfter
        + ", tokens)", b) {
      String cursor = emptyToNull(startAfter);
      String token;
      String next;

      @Override
      Expect expected() {
        return Expect.of(modelKeys(b, prefix, null, cursor, false));
      }

      @Override
      List<Item> fromStart() {
        return modelKeys(b, prefix, null, emptyToNull(startAfter), false);
      }

      @Override
      Page read(int max) {
        ListPage<KeyInfo> p = om.listKeys(v, b, prefix, startAfter, max, token);
        assertEquals(p.truncated(), p.nextToken() != null, label + ": a token iff truncated");
        next = p.nextToken();
        List<Item> items = new ArrayList<>();
        p.items().forEach(k -> items.add(keyItem(k.getKeyName(), k.getObjectId(),
            k.getDataSize())));
        return new Page(items, p.truncated());
      }

      @Override
      void advance(Page page) {
        cursor = nameOf(page.items().get(page.items().size() - 1));
        token = next;
      }

      @Override
      Comparator<String> order() {
        return byName();
      }
    };
  }

  /** listKeys paged with the last key as the next start-after. */
  Lister listKeysByStartAfter(String b, String prefix, String startAfter) {
    return new Lister("listKeys(" + b + ", prefix=" + prefix + ", startAfter=" + startAfter
        + ", by start-after)", b) {
      String cursor = emptyToNull(startAfter);

      @Override
      Expect expected() {
        return Expect.of(modelKeys(b, prefix, null, cursor, false));
      }

      @Override
      List<Item> fromStart() {
        return modelKeys(b, prefix, null, emptyToNull(startAfter), false);
      }

      @Override
      Page read(int max) {
        ListPage<KeyInfo> p = om.listKeys(v, b, prefix, cursor, max, null);
        List<Item> items = new ArrayList<>();
        p.items().forEach(k -> items.add(keyItem(k.getKeyName(), k.getObjectId(),
            k.getDataSize())));
        return new Page(items, p.truncated());
      }

      @Override
      void advance(Page page) {
        cursor = nameOf(page.items().get(page.items().size() - 1));
      }

      @Override
      Comparator<String> order() {
        return byName();
      }
    };
  }

  /** S3 ListObjectsV2 paged with continuation tokens. */
  Lister listObjectsV2(String b, String prefix, String delimiter, String startAfter) {
    return new Lister("listObjectsV2(" + b + ", prefix=" + prefix + ", delimiter=" + delimiter
        + ", startAfter=" + startAfter + ")", b) {
      String cursor = emptyToNull(startAfter);
      boolean cursorIsPrefix;
      String token;
      String next;

      @Override
      boolean clamps() {
        return true;
      }

      @Override
      Expect expected() {
        return Expect.of(modelKeys(b, prefix, delimiter, cursor, cursorIsPrefix));
      }

      @Override
      List<Item> fromStart() {
        return modelKeys(b, prefix, delimiter, emptyToNull(startAfter), false);
      }

      @Override
      Page read(int max) {
        ListObjectsV2Result r = om.listObjectsV2(new ListObjectsV2Request(v, b, prefix,
            delimiter, startAfter, max, token));
        List<Item> items = merged(r.contents(), r.commonPrefixes());
        assertEquals(items.size(), r.keyCount(), label + ": KeyCount");
        assertEquals(r.truncated(), r.nextContinuationToken() != null,
            label + ": a token iff truncated");
        next = r.nextContinuationToken();
        return new Page(items, r.truncated());
      }

      @Override
      void advance(Page page) {
        Item last = page.items().get(page.items().size() - 1);
        cursor = nameOf(last);
        cursorIsPrefix = last.id().startsWith("P:");
        token = next;
      }

      @Override
      Comparator<String> order() {
        return byName();
      }
    };
  }

  /**
   * S3 ListObjects V1 paged with NextMarker (with a delimiter) or the last key (without), as
   * its documentation says a client does.
   */
  Lister listObjectsV1(String b, String prefix, String delimiter, String marker) {
    return new Lister("listObjectsV1(" + b + ", prefix=" + prefix + ", delimiter=" + delimiter
        + ", marker=" + marker + ")", b) {
      String current = emptyToNull(marker);
      String nextMarker;

      @Override
      boolean clamps() {
        return true;
      }

      /** The V1 marker as a cursor: with a delimiter, the common prefix it is in, skipped whole. */
      private List<Item> after(String m) {
        if (m == null) {
          return modelKeys(b, prefix, delimiter, null, false);
        }
        if (delimiter != null && m.startsWith(prefix)) {
          int at = m.indexOf(delimiter, prefix.length());
          if (at >= 0) {
            return modelKeys(b, prefix, delimiter, m.substring(0, at + delimiter.length()), true);
          }
        }
        return modelKeys(b, prefix, delimiter, m, false);
      }

      @Override
      Expect expected() {
        return Expect.of(after(current));
      }

      @Override
      List<Item> fromStart() {
        return after(emptyToNull(marker));
      }

      @Override
      Page read(int max) {
        ListObjectsV1Result r = om.listObjectsV1(new ListObjectsV1Request(v, b, prefix,
            delimiter, current, max));
        List<Item> items = merged(r.contents(), r.commonPrefixes());
        if (r.truncated() && delimiter != null) {
          assertEquals(nameOf(items.get(items.size() - 1)), r.nextMarker(),
              label + ": NextMarker is the last item");
        } else {
          assertNull(r.nextMarker(), label + ": NextMarker only when truncated with a delimiter");
        }
        nextMarker = r.nextMarker();
        return new Page(items, r.truncated());
      }

      @Override
      void advance(Page page) {
        current = delimiter != null ? nextMarker
            : nameOf(page.items().get(page.items().size() - 1));
      }

      @Override
      Comparator<String> order() {
        return byName();
      }
    };
  }

  // ---- FSO listStatus ----

  private Expect statusExpect(BucketM b, String path, boolean recursive, String cursor) {
    Long dir = model.dirId(b, path);
    if (dir == null) {
      FileM f = path.isEmpty() ? null : model.file(b, path);
      if (f == null) {
        return new Expect(Code.NOT_FOUND, List.of());
      }
      return Expect.of(cursor == null ? List.of(NamespaceModel.fileItem(path, f.objectId(),
          f.size())) : List.of());
    }
    List<Item> out = new ArrayList<>();
    for (Item i : model.fsoListing(b, path, dir, recursive)) {
      if (cursor == null || FsoPath.LISTING_ORDER.compare(i.id().substring(2), cursor) > 0) {
        out.add(i);
      }
    }
    return Expect.of(out);
  }

  /** listStatus paged with tokens or with the last path as the next start key. */
  Lister listStatus(BucketM b, String path, boolean recursive, String startKey, boolean tokens) {
    return new Lister("listStatus(" + b.name() + ", path=" + path + ", recursive=" + recursive
        + ", startKey=" + startKey + (tokens ? ", tokens)" : ", by start key)"), b.name()) {
      String cursor = emptyToNull(startKey);
      String token;
      String next;

      @Override
      Expect expected() {
        return statusExpect(b, path, recursive, cursor);
      }

      @Override
      List<Item> fromStart() {
        Expect e = statusExpect(b, path, recursive, emptyToNull(startKey));
        return e.error() == null ? e.items() : List.of();
      }

      @Override
      Page read(int max) {
        ListPage<FileStatus> p = tokens
            ? om.fso().listStatus(v, b.name(), path, recursive, startKey, max, token)
            : om.fso().listStatus(v, b.name(), path, recursive, cursor, max, null);
        assertEquals(p.truncated(), p.nextToken() != null, label + ": a token iff truncated");
        next = p.nextToken();
        List<Item> items = new ArrayList<>();
        for (FileStatus s : p.items()) {
          items.add(s.isDirectory() ? NamespaceModel.dirItem(s.path(), s.objectId())
              : NamespaceModel.fileItem(s.path(), s.objectId(), s.size()));
        }
        return new Page(items, p.truncated());
      }

      @Override
      void advance(Page page) {
        cursor = nameOf(page.items().get(page.items().size() - 1));
        token = next;
      }

      @Override
      Comparator<String> order() {
        return (x, y) -> FsoPath.LISTING_ORDER.compare(x.substring(2), y.substring(2));
      }
    };
  }

  // ---- open files ----

  private List<Item> modelOpen(BucketM b, String cursorKey) {
    TreeMap<String, OpenM> table = b.fso() ? model.openFileTable : model.openKeyTable;
    String base = b.fso() ? OmKeys.fsoBucketPrefix(b.volumeId(), b.objectId())
        : OmKeys.bucketPrefix(v, b.name());
    List<Item> out = new ArrayList<>();
    Map<Long, NamespaceModel.DirM> dirs = new java.util.HashMap<>();
    if (b.fso()) {
      for (NamespaceModel.DirM d : model.dirTable.values()) {
        dirs.put(d.objectId(), d);
      }
    }
    for (Map.Entry<String, OpenM> e : NamespaceModel.under(table, base)) {
      if (cursorKey == null || UTF8_ORDER.compare(e.getKey(), cursorKey) > 0) {
        String path = b.fso() ? currentPath(b, dirs, e.getKey(), e.getValue().name())
            : e.getValue().name();
        out.add(new Item("O:" + e.getKey(), path + "#" + e.getValue().clientId()
            + "@" + e.getValue().created()));
      }
    }
    return out;
  }

  /**
   * Where an FSO open file is now: its parent directory's current path (up the model's
   * directories by object id) and its name; the path recorded at open if a directory on the way
   * is gone (deleted, awaiting the purge).
   */
  private static String currentPath(BucketM b, Map<Long, NamespaceModel.DirM> dirs, String key,
      String recorded) {
    int id = OmKeys.ID_WIDTH;
    long parent = OmKeys.parseId(key.substring(2 * id + 3, 3 * id + 3));
    String path = key.substring(3 * id + 4, key.length() - id - 1);
    while (parent != b.objectId()) {
      NamespaceModel.DirM d = dirs.get(parent);
      if (d == null) {
        return recorded;
      }
      path = d.name() + "/" + path;
      parent = d.parentId();
    }
    return path;
  }

  /** listOpenFiles paged with tokens; totalOpenKeyCount must be the model's count. */
  Lister listOpenFiles(BucketM b) {
    return new Lister("listOpenFiles(" + b.name() + ")", b.name()) {
      String cursor;
      String token;
      String next;

      @Override
      Expect expected() {
        return Expect.of(modelOpen(b, cursor));
      }

      @Override
      List<Item> fromStart() {
        return modelOpen(b, null);
      }

      @Override
      Page read(int max) {
        OpenFilesPage p = om.openFiles().list(v, b.name(), max, token);
        assertEquals(p.truncated(), p.nextToken() != null, label + ": a token iff truncated");
        assertEquals(modelOpen(b, null).size(), p.totalOpenKeyCount(),
            label + ": totalOpenKeyCount");
        next = p.nextToken();
        List<Item> items = new ArrayList<>();
        for (OpenFileEntry e : p.entries()) {
          KeyInfo k = e.info();
          String key = b.fso() ? OmKeys.openFileKey(b.volumeId(), b.objectId(), k.getParentId(),
              k.getFileName(), e.clientId()) : OmKeys.openKey(v, b.name(), k.getKeyName(),
              e.clientId());
          items.add(new Item("O:" + key, e.path() + "#" + e.clientId() + "@"
              + e.creationTime()));
        }
        return new Page(items, p.truncated());
      }

      @Override
      void advance(Page page) {
        cursor = nameOf(page.items().get(page.items().size() - 1));
        token = next;
      }

      @Override
      Comparator<String> order() {
        return byName();
      }
    };
  }

  // ---- multipart uploads ----

  private List<Item> modelUploads(String b, String prefix, String keyMarker,
      String uploadIdMarker) {
    List<UploadM> all = new ArrayList<>();
    for (UploadM u : model.multipartTable.values()) {
      if (u.bucket().equals(b) && u.key().startsWith(prefix)) {
        all.add(u);
      }
    }
    all.sort(Comparator.comparing(UploadM::key, UTF8_ORDER).thenComparing(UploadM::uploadId));
    List<Item> out = new ArrayList<>();
    for (UploadM u : all) {
      if (keyMarker != null) {
        int c = UTF8_ORDER.compare(u.key(), keyMarker);
        if (c < 0 || (c == 0 && (uploadIdMarker == null
            || u.uploadId().compareTo(uploadIdMarker) <= 0))) {
          continue;
        }
      }
      out.add(new Item("U:" + u.key() + "#" + u.uploadId(), "@" + u.created()));
    }
    return out;
  }

  /** listMultipartUploads paged with the next key and upload-id markers. */
  Lister listUploads(String b, String prefix, String keyMarker, String uploadIdMarker) {
    return new Lister("listMultipartUploads(" + b + ", prefix=" + prefix + ", keyMarker="
        + keyMarker + ", uploadIdMarker=" + uploadIdMarker + ")", b) {
      String km = emptyToNull(keyMarker);
      String um = km == null ? null : emptyToNull(uploadIdMarker);
      String nextKm;
      String nextUm;

      @Override
      boolean clamps() {
        return true;
      }

      @Override
      Expect expected() {
        return Expect.of(modelUploads(b, prefix, km, um));
      }

      @Override
      List<Item> fromStart() {
        String k = emptyToNull(keyMarker);
        return modelUploads(b, prefix, k, k == null ? null : emptyToNull(uploadIdMarker));
      }

      @Override
      Page read(int max) {
        MultipartUploadListing p = om.multipart().list(v, b, prefix, km,
            km == null ? uploadIdMarker : um, max);
        List<Item> items = new ArrayList<>();
        for (MultipartUploadInfo u : p.uploads()) {
          items.add(new Item("U:" + u.getKeyName() + "#" + u.getUploadId(),
              "@" + u.getCreationTime()));
        }
        if (p.truncated()) {
          MultipartUploadInfo last = p.uploads().get(p.uploads().size() - 1);
          assertEquals(last.getKeyName(), p.nextKeyMarker(), label + ": next key marker");
          assertEquals(last.getUploadId(), p.nextUploadIdMarker(), label + ": next upload id");
        } else {
          assertNull(p.nextKeyMarker());
          assertNull(p.nextUploadIdMarker());
        }
        nextKm = p.nextKeyMarker();
        nextUm = p.nextUploadIdMarker();
        return new Page(items, p.truncated());
      }

      @Override
      void advance(Page page) {
        km = nextKm;
        um = nextUm;
      }

      @Override
      Comparator<String> order() {
        return (x, y) -> {
          int hx = x.lastIndexOf('#');
          int hy = y.lastIndexOf('#');
          int c = UTF8_ORDER.compare(x.substring(2, hx), y.substring(2, hy));
          return c != 0 ? c : x.substring(hx).compareTo(y.substring(hy));
        };
      }
    };
  }

  /** Every part of every live upload of {@code b}, paged by part-number markers. */
  void checkParts(String b, Random random) {
    for (UploadM u : model.multipartTable.values()) {
      if (!u.bucket().equals(b)) {
        continue;
      }
      List<String> expected = new ArrayList<>();
      u.parts().forEach((n, p) -> expected.add(n + "=" + p.objectId() + "/" + p.size() + "/"
          + p.etag()));
      List<String> got = new ArrayList<>();
      int marker = 0;
      for (int guard = 0; ; guard++) {
        assertTrue(guard < 1000);
        int max = 1 + random.nextInt(cap + 2);
        PartListing p = om.multipart().listParts(v, b, u.key(), u.uploadId(), marker, max);
        assertTrue(p.parts().size() <= Math.min(max, cap));
        for (PartInfo part : p.parts()) {
          got.add(part.getPartNumber() + "=" + part.getObjectId() + "/" + part.getSize() + "/"
              + part.getEtag());
        }
        assertEquals(got.size() < expected.size(), p.truncated(), "listParts truncated");
        if (!p.truncated()) {
          break;
        }
        marker = p.nextPartNumberMarker();
      }
      assertEquals(expected, got, "listParts of " + u.key() + "/" + u.uploadId());
    }
  }

  // ---- snapshots, volumes, buckets ----

  private List<Item> modelSnapshots(String b, String prefix, String after,
      boolean includeDeleted) {
    String base = OmKeys.bucketPrefix(v, b);
    List<Item> out = new ArrayList<>();
    for (Map.Entry<String, Boolean> e : NamespaceModel.under(model.snapshotTable,
        base + prefix)) {
      String name = e.getKey().substring(base.length());
      if ((after == null || UTF8_ORDER.compare(name, after) > 0)
          && (includeDeleted || e.getValue())) {
        out.add(new Item("S:" + name, e.getValue() ? "ACTIVE" : "DELETED"));
      }
    }
    return out;
  }

  /** listSnapshots paged with tokens or with the last name as the next previous snapshot. */
  Lister listSnapshots(String b, String prefix, String prev, boolean includeDeleted,
      boolean tokens) {
    return new Lister("listSnapshots(" + b + ", prefix=" + prefix + ", prev=" + prev
        + ", includeDeleted=" + includeDeleted + (tokens ? ", tokens)" : ", by name)"), b) {
      String cursor = emptyToNull(prev);
      String token;
      String next;

      @Override
      Expect expected() {
        return Expect.of(modelSnapshots(b, prefix, cursor, includeDeleted));
      }

      @Override
      List<Item> fromStart() {
        return modelSnapshots(b, prefix, emptyToNull(prev), includeDeleted);
      }

      @Override
      Page read(int max) {
        ListPage<SnapshotInfo> p;
        if (tokens) {
          p = om.snapshots().list(v, b, prefix, prev, max, token, includeDeleted);
          assertEquals(p.truncated(), p.nextToken() != null, label + ": a token iff truncated");
        } else if (includeDeleted) {
          p = om.snapshots().list(v, b, prefix, cursor, max, null, true);
        } else {
          p = om.snapshots().list(v, b, prefix, cursor, max);
        }
        next = p.nextToken();
        List<Item> items = new ArrayList<>();
        for (SnapshotInfo s : p.items()) {
          assertEquals(b, s.getBucketName());
          items.add(new Item("S:" + s.getName(),
              s.getStatus() == SnapshotStatus.SNAPSHOT_ACTIVE ? "ACTIVE" : "DELETED"));
        }
        return new Page(items, p.truncated());
      }

      @Override
      void advance(Page page) {
        cursor = nameOf(page.items().get(page.items().size() - 1));
        token = next;
      }

      @Override
      Comparator<String> order() {
        return byName();
      }
    };
  }

  /** listKeysInSnapshot paged with the last key as the next start-after. */
  Lister listKeysInSnapshot(String b, String snapshot, String prefix, String startAfter) {
    return new Lister("listKeysInSnapshot(" + b + ", snapshot=" + snapshot + ", prefix=" + prefix
        + ", startAfter=" + startAfter + ")", b) {
      String cursor = emptyToNull(startAfter);

      private Expect after(String c) {
        String key = OmKeys.snapshotKey(v, b, snapshot);
        if (!Boolean.TRUE.equals(model.snapshotTable.get(key))) {
          return new Expect(Code.NOT_FOUND, List.of());
        }
        if (model.bucket(b).fso()) {
          return new Expect(Code.UNIMPLEMENTED, List.of());
        }
        List<Item> out = new ArrayList<>();
        for (Map.Entry<String, KeyM> e : model.snapshotKeys.get(key).entrySet()) {
          if (e.getKey().startsWith(prefix)
              && (c == null || UTF8_ORDER.compare(e.getKey(), c) > 0)) {
            out.add(keyItem(e.getKey(), e.getValue().objectId(), e.getValue().size()));
          }
        }
        return Expect.of(out);
      }

      @Override
      Expect expected() {
        return after(cursor);
      }

      @Override
      List<Item> fromStart() {
        Expect e = after(emptyToNull(startAfter));
        return e.error() == null ? e.items() : List.of();
      }

      @Override
      Page read(int max) {
        ListPage<KeyInfo> p = om.snapshots().listKeys(v, b, snapshot, prefix, cursor, max);
        assertNull(p.nextToken(), label + ": pages by start-after");
        List<Item> items = new ArrayList<>();
        p.items().forEach(k -> items.add(keyItem(k.getKeyName(), k.getObjectId(),
            k.getDataSize())));
        return new Page(items, p.truncated());
      }

      @Override
      void advance(Page page) {
        cursor = nameOf(page.items().get(page.items().size() - 1));
      }

      @Override
      Comparator<String> order() {
        return byName();
      }
    };
  }

  /** listVolumes (all volumes of the store) paged with the last name as start-after. */
  Lister listVolumes(String prefix, String startAfter) {
    return new Lister("listVolumes(prefix=" + prefix + ", startAfter=" + startAfter + ")",
        null) {
      String cursor = emptyToNull(startAfter);

      private List<Item> after(String c) {
        List<Item> out = new ArrayList<>();
        for (String name : allVolumes) {
          if (name.startsWith(prefix) && (c == null || UTF8_ORDER.compare(name, c) > 0)) {
            out.add(new Item("V:" + name, ""));
          }
        }
        return out;
      }

      @Override
      Expect expected() {
        return Expect.of(after(cursor));
      }

      @Override
      List<Item> fromStart() {
        return after(emptyToNull(startAfter));
      }

      @Override
      Page read(int max) {
        ListPage<VolumeInfo> p = om.listVolumes(prefix, cursor, max);
        assertNull(p.nextToken());
        List<Item> items = new ArrayList<>();
        p.items().forEach(i -> items.add(new Item("V:" + i.getName(), "")));
        return new Page(items, p.truncated());
      }

      @Override
      void advance(Page page) {
        cursor = nameOf(page.items().get(page.items().size() - 1));
      }

      @Override
      Comparator<String> order() {
        return byName();
      }
    };
  }

  /** listBuckets of this try's volume paged with the last name as start-after. */
  Lister listBuckets(String prefix, String startAfter) {
    return new Lister("listBuckets(" + v + ", prefix=" + prefix + ", startAfter=" + startAfter
        + ")", null) {
      String cursor = emptyToNull(startAfter);

      private List<Item> after(String c) {
        List<Item> out = new ArrayList<>();
        for (BucketM b : model.buckets.values()) {
          if (b.name().startsWith(prefix) && (c == null || UTF8_ORDER.compare(b.name(), c) > 0)) {
            out.add(new Item("B:" + b.name(), b.layout() + "#" + b.objectId()));
          }
        }
        return out;
      }

      @Override
      Expect expected() {
        return Expect.of(after(cursor));
      }

      @Override
      List<Item> fromStart() {
        return after(emptyToNull(startAfter));
      }

      @Override
      Page read(int max) {
        ListPage<BucketInfo> p = om.listBuckets(v, prefix, cursor, max);
        List<Item> items = new ArrayList<>();
        p.items().forEach(i -> items.add(new Item("B:" + i.getBucketName(),
            i.getLayout() + "#" + i.getObjectId())));
        return new Page(items, p.truncated());
      }

      @Override
      void advance(Page page) {
        cursor = nameOf(page.items().get(page.items().size() - 1));
      }

      @Override
      Comparator<String> order() {
        return byName();
      }
    };
  }

  // ---- random listings ----

  static <T> T pick(Random random, T[] values) {
    return values[random.nextInt(values.length)];
  }

  /** A listing prefix: a fixed one, or the start of a live key of {@code b}. */
  String randomPrefix(Random random, String b) {
    List<Map.Entry<String, KeyM>> live = NamespaceModel.under(model.keyTable,
        OmKeys.bucketPrefix(v, b));
    int r = random.nextInt(4);
    if (live.isEmpty() || r == 0) {
      return pick(random, PREFIXES);
    }
    if (r == 1) {
      return "";
    }
    String key = live.get(random.nextInt(live.size())).getKey()
        .substring(OmKeys.bucketPrefix(v, b).length());
    int cut = random.nextInt(key.length() + 1);
    if (cut > 0 && cut < key.length() && Character.isLowSurrogate(key.charAt(cut))) {
      cut--;
    }
    return key.substring(0, cut);
  }

  /** A start-after or marker: none, a fixed name, or a live key of {@code b}. */
  private String randomKeyCursor(Random random, String b) {
    int r = random.nextInt(4);
    if (r == 0) {
      return null;
    }
    List<Map.Entry<String, KeyM>> live = NamespaceModel.under(model.keyTable,
        OmKeys.bucketPrefix(v, b));
    if (r == 1 || live.isEmpty()) {
      return pick(random, new String[] {"a", "a/", "b", "\u00e9", "ab/"});
    }
    return live.get(random.nextInt(live.size())).getKey()
        .substring(OmKeys.bucketPrefix(v, b).length());
  }

  private String randomRelativePath(Random random) {
    List<String> parts = new ArrayList<>();
    for (int i = 1 + random.nextInt(3); i > 0; i--) {
      parts.add(pick(random, NAMES));
    }
    return String.join("/", parts);
  }

  /** A random listing of any kind over {@code obs} or {@code fso}, or of volumes or buckets. */
  Lister randomLister(Random random, String obs, BucketM fso) {
    switch (random.nextInt(10)) {
      case 0:
        return random.nextBoolean()
            ? listKeysWithTokens(obs, randomPrefix(random, obs), randomKeyCursor(random, obs))
            : listKeysByStartAfter(obs, randomPrefix(random, obs), randomKeyCursor(random, obs));
      case 1:
        return listObjectsV2(obs, randomPrefix(random, obs), pick(random, DELIMITERS),
            randomKeyCursor(random, obs));
      case 2:
        return listObjectsV1(obs, randomPrefix(random, obs), pick(random, DELIMITERS),
            randomKeyCursor(random, obs));
      case 3: {
        boolean recursive = random.nextBoolean();
        String start = random.nextInt(3) == 0 ? randomRelativePath(random) : null;
        return listStatus(fso, "", recursive, start, random.nextBoolean());
      }
      case 4: {
        List<String> dirs = model.visibleDirs(fso);
        String dir = dirs.get(random.nextInt(dirs.size()));
        String start = random.nextInt(3) == 0
            ? FsoPath.join(dir, randomRelativePath(random)) : null;
        return listStatus(fso, dir, random.nextBoolean(), start, random.nextBoolean());
      }
      case 5:
        return listOpenFiles(random.nextBoolean() ? model.bucket(obs) : fso);
      case 6:
        return listUploads(obs, randomPrefix(random, obs), randomKeyCursor(random, obs),
            randomUploadIdMarker(random, obs));
      case 7:
        if (random.nextBoolean()) {
          return listKeysInSnapshot(random.nextInt(3) == 0 ? fso.name() : obs,
              pick(random, SNAPSHOTS), random.nextBoolean() ? "" : randomPrefix(random, obs),
              random.nextBoolean() ? null : randomKeyCursor(random, obs));
        }
        return listSnapshots(random.nextBoolean() ? obs : fso.name(),
            pick(random, SNAPSHOT_PREFIXES), random.nextInt(3) == 0 ? pick(random, SNAPSHOTS)
                : null, random.nextBoolean(), random.nextBoolean());
      case 8:
        return random.nextBoolean() ? listVolumes(v, null)
            : listVolumes("", random.nextBoolean() ? null : v);
      default:
        return listBuckets(pick(random, BUCKET_PREFIXES),
            random.nextInt(3) == 0 ? pick(random, OBS) : null);
    }
  }

  private String randomUploadIdMarker(Random random, String b) {
    if (random.nextBoolean()) {
      return null;
    }
    List<String> ids = new ArrayList<>();
    for (UploadM u : model.multipartTable.values()) {
      if (u.bucket().equals(b)) {
        ids.add(u.uploadId());
      }
    }
    return ids.isEmpty() || random.nextBoolean() ? OmKeys.id(random.nextInt(1 << 20))
        : ids.get(random.nextInt(ids.size()));
  }

  /** Every listing of the namespace, paged with random sizes, against the model. */
  void checkAllListings(Random random) {
    for (String b : OBS) {
      checkListing(random.nextBoolean()
          ? listKeysWithTokens(b, randomPrefix(random, b), randomKeyCursor(random, b))
          : listKeysByStartAfter(b, randomPrefix(random, b), randomKeyCursor(random, b)), random);
      for (int i = b.equals(OBS[0]) ? 0 : 1; i < 2; i++) {
        checkListing(listObjectsV2(b, randomPrefix(random, b), pick(random, DELIMITERS),
            randomKeyCursor(random, b)), random);
        checkListing(listObjectsV1(b, randomPrefix(random, b), pick(random, DELIMITERS),
            randomKeyCursor(random, b)), random);
      }
      checkListing(listOpenFiles(model.bucket(b)), random);
      checkListing(listUploads(b, "", null, null), random);
      checkListing(listUploads(b, randomPrefix(random, b), randomKeyCursor(random, b),
          randomUploadIdMarker(random, b)), random);
      checkParts(b, random);
      checkListing(listSnapshots(b, pick(random, SNAPSHOT_PREFIXES), null, random.nextBoolean(),
          random.nextBoolean()), random);
    }
    for (String name : FSO) {
      BucketM b = model.bucket(name);
      checkListing(listStatus(b, "", true, null, random.nextBoolean()), random);
      checkListing(listStatus(b, "", true, randomRelativePath(random), random.nextBoolean()),
          random);
      checkListing(listStatus(b, "", false, null, random.nextBoolean()), random);
      List<String> dirs = model.visibleDirs(b);
      for (int i = 0; i < Math.min(2, dirs.size() - 1); i++) {
        String d = dirs.get(1 + random.nextInt(dirs.size() - 1));
        checkListing(listStatus(b, d, false, random.nextBoolean() ? null
            : FsoPath.join(d, randomRelativePath(random)), random.nextBoolean()), random);
      }
      checkListing(listOpenFiles(b), random);
      checkListing(listSnapshots(name, pick(random, SNAPSHOT_PREFIXES),
          random.nextBoolean() ? null : pick(random, SNAPSHOTS), random.nextBoolean(),
          random.nextBoolean()), random);
    }
    for (String key : model.snapshotTable.keySet()) {
      String rest = key.substring(v.length() + 2);
      String b = rest.substring(0, rest.indexOf('/'));
      checkListing(listKeysInSnapshot(b, rest.substring(b.length() + 1),
          random.nextBoolean() ? "" : randomPrefix(random, b), randomKeyCursor(random, b)),
          random);
    }
    checkListing(listVolumes(v, null), random);
    checkListing(listVolumes("", random.nextBoolean() ? null : v), random);
    checkListing(listBuckets(pick(random, BUCKET_PREFIXES), null), random);
    checkListing(listBuckets("", pick(random, OBS)), random);
  }
}
