package io.sediment.recon;

import io.sediment.db.DBStore;
import io.sediment.db.codec.Bytes;
import io.sediment.db.stats.CompactionEvent;
import io.sediment.db.stats.CompactionStats;
import io.sediment.db.stats.HotRange;
import io.sediment.db.stats.KeyRange;
import io.sediment.db.stats.TableTombstoneStats;
import io.sediment.db.stats.TombstoneStats;
import io.sediment.db.tombstone.CompactionScheduler;
import io.sediment.om.core.OmCounter;
import io.sediment.om.insight.ObjectFields;
import io.sediment.om.insight.OmInsight;
import io.sediment.proto.om.GetReplicationStatusResponse;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The JSON endpoints under {@code /api/v1}: each turns query {@link Params} into a response body
 * (maps and lists that Jackson writes as they are, so field names are spelled here once). Ozone
 * Recon's parameter and field names where Ozone has the endpoint; fields marked "ours" in
 * README's Recon section are additions. Thread-safe (stateless).
 */
final class ReconApi {

  /** Recon's {@code sortSubPaths} keeps the largest this many sub-paths. */
  static final int TOP_SUB_PATHS = 30;

  private final ReconSource source;
  private final Supplier<GetReplicationStatusResponse> replication;

  ReconApi(ReconSource source, Supplier<GetReplicationStatusResponse> replication) {
    this.source = source;
    this.replication = replication;
  }

  /** The routes: path below {@code /api/v1} to handler. */
  Map<String, Function<Params, Object>> routes() {
    Map<String, Function<Params, Object>> r = new LinkedHashMap<>();
    r.put("/keys/open", this::openKeys);
    r.put("/keys/open/summary", p -> openKeysSummary());
    r.put("/keys/deletePending", this::deletePending);
    r.put("/keys/deletePending/summary", p -> deletePendingSummary());
    r.put("/keys/deletePending/dirs", this::deletePendingDirs);
    r.put("/keys/deletePending/dirs/summary", p -> deletePendingDirsSummary());
    r.put("/keys/listKeys", this::listKeys);
    r.put("/namespace/summary", this::namespaceSummary);
    r.put("/namespace/usage", this::namespaceUsage);
    r.put("/namespace/du", this::namespaceUsage);
    r.put("/namespace/quota", this::namespaceQuota);
    r.put("/namespace/dist", this::namespaceDist);
    r.put("/db/tables", p -> tables());
    r.put("/db/tombstones", p -> tombstones());
    r.put("/db/status", p -> status());
    r.put("/replication/status", p -> replication());
    return r;
  }

  private OmInsight insight() {
    return source.insight();
  }

  // ---- /keys ----------------------------------------------------------------------------------

  Object openKeys(Params p) {
    // Given = non-empty, as for every parameter (an empty value is the default).
    boolean anyFlag = !p.string("includeFso", "").isEmpty()
        || !p.string("includeNonFso", "").isEmpty();
    boolean fso = p.bool("includeFso", !anyFlag);
    boolean nonFso = p.bool("includeNonFso", !anyFlag);
    OmInsight.Page page = insight().openKeys(p.string("startPrefix", ""), p.string("prevKey", ""),
        p.string("prevKeyTable", ""), p.integer("limit", OmInsight.DEFAULT_LIMIT), fso, nonFso);
    Map<String, Object> out = pageHeader(page);
    List<Object> fsoRows = new ArrayList<>();
    List<Object> nonFsoRows = new ArrayList<>();
    for (OmInsight.Row r : page.rows()) {
      (r.fso() ? fsoRows : nonFsoRows).add(keyEntity(r, r.info().getCreationTime()));
    }
    out.put("nonFSO", nonFsoRows);
    out.put("fso", fsoRows);
    out.put("status", "OK");
    return out;
  }

  Object openKeysSummary() {
    Map<OmCounter, Long> c = insight().counters();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("totalOpenKeys", c.get(OmCounter.OPEN_KEYS) + c.get(OmCounter.OPEN_FILES));
    // Sediment learns a key's size at commit: open keys have none yet.
    out.put("totalReplicatedDataSize", 0L);
    out.put("totalUnreplicatedDataSize", 0L);
    out.put("openKeys", c.get(OmCounter.OPEN_KEYS));
    out.put("openFiles", c.get(OmCounter.OPEN_FILES));
    return out;
  }

  Object deletePending(Params p) {
    OmInsight.Page page = insight().deletedKeys(p.string("startPrefix", ""),
        p.string("prevKey", ""), p.integer("limit", OmInsight.DEFAULT_LIMIT));
    Map<String, Object> out = pageHeader(page);
    List<Object> rows = new ArrayList<>();
    for (OmInsight.Row r : page.rows()) {
      rows.add(keyEntity(r, r.info().getDeletionTime()));
    }
    out.put("deletedKeyInfo", rows);
    out.put("status", "OK");
    return out;
  }

  Object deletePendingSummary() {
    Map<OmCounter, Long> c = insight().counters();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("totalDeletedKeys", c.get(OmCounter.DELETED_KEYS));
    out.put("totalReplicatedDataSize", c.get(OmCounter.DELETED_KEY_BYTES));
    out.put("totalUnreplicatedDataSize", c.get(OmCounter.DELETED_KEY_BYTES));
    return out;
  }

  Object deletePendingDirs(Params p) {
    OmInsight.Page page = insight().deletedDirectories(p.string("startPrefix", ""),
        p.string("prevKey", ""), p.integer("limit", OmInsight.DEFAULT_LIMIT));
    Map<String, Object> out = pageHeader(page);
    List<Object> rows = new ArrayList<>();
    for (OmInsight.Row r : page.rows()) {
      Map<String, Object> e = keyEntity(r, r.info().getDeletionTime());
      e.put("isKey", false);
      rows.add(e);
    }
    out.put("deletedDirInfo", rows);
    out.put("status", "OK");
    return out;
  }

  Object deletePendingDirsSummary() {
    return Map.of("totalDeletedDirectories", insight().counters().get(OmCounter.DELETED_DIRECTORIES));
  }

  Object listKeys(Params p) {
    String prefix = p.string("startPrefix", null);
    if (prefix == null || prefix.isEmpty()) {
      throw ApiException.badRequest("Parameter 'startPrefix' is required: /volume/bucket[/prefix]");
    }
    OmInsight.Page page = insight().listKeys(prefix, p.string("prevKey", ""),
        p.integer("limit", OmInsight.DEFAULT_LIMIT), p.nonNegativeLong("keySize", 0),
        p.creationDate("creationDate"));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("status", "OK");
    out.put("path", prefix);
    out.put("replicatedDataSize", page.dataSize());
    out.put("unReplicatedDataSize", page.dataSize());
    out.put("lastKey", page.lastKey());
    out.put("hasMore", page.hasMore());
    List<Object> keys = new ArrayList<>();
    for (OmInsight.Row r : page.rows()) {
      Map<String, Object> e = keyEntity(r, 0);
      e.remove("inStateSince");
      keys.add(e);
    }
    out.put("keys", keys);
    return out;
  }

  private static Map<String, Object> pageHeader(OmInsight.Page page) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("lastKey", page.lastKey());
    out.put("lastKeyTable", page.lastKeyTable());
    out.put("hasMore", page.hasMore());
    out.put("replicatedDataSize", page.dataSize());
    out.put("unreplicatedDataSize", page.dataSize());
    return out;
  }

  /** Recon's KeyEntityInfo (Sediment keeps one replica's size: replicated = size). */
  private static Map<String, Object> keyEntity(OmInsight.Row r, long inStateSince) {
    KeyInfo k = r.info();
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("key", r.key());
    e.put("path", r.path());
    e.put("table", r.table());
    if (inStateSince != 0) {
      e.put("inStateSince", inStateSince);
    }
    e.put("size", k.getDataSize());
    e.put("replicatedSize", k.getDataSize());
    e.put("creationTime", k.getCreationTime());
    e.put("modificationTime", k.getModificationTime());
    e.put("objectId", k.getObjectId());
    e.put("isKey", true);
    return e;
  }

  // ---- /namespace -----------------------------------------------------------------------------

  Object namespaceSummary(Params p) {
    OmInsight.Summary s = insight().summary(requiredPath(p));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("status", s.type() == OmInsight.PathType.UNKNOWN ? "PATH_NOT_FOUND" : "OK");
    out.put("path", s.path());
    out.put("type", s.type().name());
    Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("numVolume", s.numVolume());
    counts.put("numBucket", s.numBucket());
    counts.put("numDir", s.numDir());
    counts.put("numKey", s.numKey());
    out.put("countStats", counts);
    out.put("size", s.size());
    Map<String, Object> info = objectInfo(s);
    if (info != null) {
      out.put("objectInfo", info);
    }
    return out;
  }

  /** The summarized object in {@link ObjectFields}' shared schema; Recon adds a bucket's usedBytes. */
  private static Map<String, Object> objectInfo(OmInsight.Summary s) {
    switch (s.type()) {
      case VOLUME -> {
        return ObjectFields.volume(s.volume());
      }
      case BUCKET -> {
        Map<String, Object> o = ObjectFields.bucket(s.bucket());
        o.put("usedBytes", s.size());
        return o;
      }
      case DIRECTORY -> {
        return ObjectFields.directory(s.directory());
      }
      case KEY -> {
        KeyInfo k = s.key();
        return ObjectFields.key(k, k.getFileName().isEmpty() ? k.getKeyName() : k.getFileName());
      }
      default -> {
        return null;
      }
    }
  }

  Object namespaceUsage(Params p) {
    boolean files = p.bool("files", false);
    boolean replica = p.bool("replica", false);
    boolean sort = p.bool("sortSubPaths", true);
    OmInsight.Usage u = insight().usage(requiredPath(p), files, sort ? TOP_SUB_PATHS : 0);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("status", u.type() == OmInsight.PathType.UNKNOWN ? "PATH_NOT_FOUND" : "OK");
    out.put("path", u.path());
    out.put("type", u.type().name());
    out.put("size", u.size());
    out.put("sizeWithReplica", replica ? u.size() : -1L);
    out.put("subPathCount", u.subPathCount());
    List<Object> subs = new ArrayList<>();
    for (OmInsight.SubPath s : u.subPaths()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("path", s.path());
      e.put("size", s.size());
      e.put("sizeWithReplica", replica ? s.size() : -1L);
      e.put("isKey", s.isKey());
      subs.add(e);
    }
    out.put("subPaths", subs);
    out.put("sizeDirectKey", u.sizeDirectKey());
    return out;
  }

  /**
   * Ozone's QuotaUsageResponse: {@code allowed} (bytes, -1 = no quota) and {@code used} for root,
   * a volume or a bucket; below a bucket TYPE_NOT_APPLICABLE, a missing path PATH_NOT_FOUND, both
   * with 0 and 0.
   */
  Object namespaceQuota(Params p) {
    OmInsight.Quota q = insight().quota(requiredPath(p));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("status", switch (q.type()) {
      case ROOT, VOLUME, BUCKET -> "OK";
      case UNKNOWN -> "PATH_NOT_FOUND";
      default -> "TYPE_NOT_APPLICABLE";
    });
    out.put("allowed", q.allowed());
    out.put("used", q.used());
    return out;
  }

  /**
   * Ozone's FileSizeDistributionResponse: {@code dist}, the count of files per size bin
   * ({@link io.sediment.om.insight.FileSizeBins}, always all of them); a key TYPE_NOT_APPLICABLE,
   * a missing path PATH_NOT_FOUND, both with every bin 0.
   */
  Object namespaceDist(Params p) {
    OmInsight.FileSizes d = insight().fileSizes(requiredPath(p));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("status", switch (d.type()) {
      case KEY -> "TYPE_NOT_APPLICABLE";
      case UNKNOWN -> "PATH_NOT_FOUND";
      default -> "OK";
    });
    out.put("dist", d.counts());
    return out;
  }

  private static String requiredPath(Params p) {
    String path = p.string("path", null);
    if (path == null || path.isEmpty()) {
      throw ApiException.badRequest("Parameter 'path' is required, e.g. path=/ or path=/volume/bucket");
    }
    return path;
  }

  // ---- /db (ours) -----------------------------------------------------------------------------

  Object tables() {
    DBStore store = source.store();
    TombstoneStats stats = store.tombstoneStats();
    List<Object> tables = new ArrayList<>();
    for (TableTombstoneStats t : stats.tables()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("name", t.table());
      e.put("estimatedKeys", t.estimatedLiveKeys());
      e.put("sstBytes", store.getLongProperty(t.table(), "rocksdb.total-sst-files-size"));
      e.put("liveDataBytes", store.getLongProperty(t.table(), "rocksdb.estimate-live-data-size"));
      e.put("memtableBytes", store.getLongProperty(t.table(), "rocksdb.cur-size-all-mem-tables"));
      e.put("sstFiles", t.sstFiles());
      e.put("sstEntries", t.sstEntries());
      e.put("pointTombstones", t.sstDeletions() - t.sstRangeDeletions());
      e.put("rangeTombstones", t.sstRangeDeletions());
      e.put("memtableDeletes", t.memtableDeletes());
      e.put("memtableRangeDeletes", t.memtableRangeDeletes());
      e.put("tombstones", t.sstDeletions() + t.memtableDeletes() + t.memtableRangeDeletes());
      e.put("slowPasses", t.slowPasses());
      e.put("tombstonesSkipped", t.tombstonesSkipped());
      e.put("hotRanges", t.hotRanges().size());
      tables.add(e);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("store", store.getName());
    out.put("mode", source.mode());
    out.put("tables", tables);
    return out;
  }

  Object tombstones() {
    TombstoneStats stats = source.store().tombstoneStats();
    List<Object> tables = new ArrayList<>();
    for (TableTombstoneStats t : stats.tables()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("name", t.table());
      List<Object> hot = new ArrayList<>();
      for (HotRange h : t.hotRanges()) {
        Map<String, Object> r = range(h.range());
        r.put("slowPasses", h.slowPasses());
        r.put("tombstonesSkipped", h.tombstonesSkipped());
        r.put("lastSeenMillis", h.lastSeenMillis());
        hot.add(r);
      }
      e.put("hotRanges", hot);
      List<Object> pending = new ArrayList<>();
      for (KeyRange k : t.pendingCompactions()) {
        pending.add(range(k));
      }
      e.put("pendingCompactions", pending);
      Map<String, Object> sampled = new LinkedHashMap<>();
      sampled.put("scans", t.sampledScans().scans());
      sampled.put("entriesReturned", t.sampledScans().entriesReturned());
      sampled.put("tombstonesSkipped", t.sampledScans().tombstonesSkipped());
      sampled.put("nativeNanos", t.sampledScans().nativeNanos());
      e.put("sampledScans", sampled);
      tables.add(e);
    }
    CompactionStats c = stats.compactions();
    Map<String, Object> compactions = new LinkedHashMap<>();
    compactions.put("requested", c.requested());
    compactions.put("merged", c.merged());
    compactions.put("completed", c.completed());
    compactions.put("pinned", c.pinned());
    compactions.put("skipped", c.skipped());
    compactions.put("failed", c.failed());
    compactions.put("pending", c.pending());
    List<Object> recent = new ArrayList<>();
    for (CompactionEvent ev : c.recent()) {
      Map<String, Object> r = range(ev.range());
      r.put("table", ev.table());
      r.put("outcome", ev.outcome().name());
      r.put("trigger", ev.trigger().name());
      r.put("reason", ev.reason());
      r.put("tombstonesBefore", ev.tombstonesBefore());
      r.put("tombstonesAfter", ev.tombstonesAfter());
      r.put("durationMillis", ev.durationMillis());
      r.put("atMillis", ev.atMillis());
      recent.add(r);
    }
    compactions.put("recent", recent);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("tables", tables);
    out.put("compactions", compactions);
    return out;
  }

  Object status() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("store", source.store().getName());
    out.put("mode", source.mode());
    out.put("catchUps", source.catchUps());
    out.put("catchUpFailures", source.catchUpFailures());
    out.put("pageSizeCap", insight().maxLimit());
    return out;
  }

  // ---- /replication (ours) --------------------------------------------------------------------

  /** This replica's place in its group; role SINGLE and nothing else for a single node. */
  Object replication() {
    GetReplicationStatusResponse s = replication.get();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("replicated", s.getReplicated());
    if (!s.getReplicated()) {
      out.put("role", "SINGLE");
      return out;
    }
    out.put("replicaId", s.getReplicaId());
    out.put("role", s.getRole());
    out.put("term", s.getTerm());
    out.put("leaderId", s.getLeaderId().isEmpty() ? null : s.getLeaderId());
    out.put("leaderAddress", s.getLeaderAddress().isEmpty() ? null : s.getLeaderAddress());
    out.put("commitIndex", s.getCommitIndex());
    out.put("appliedIndex", s.getAppliedIndex());
    out.put("applyLag", Math.max(0, s.getCommitIndex() - s.getAppliedIndex()));
    out.put("followerMatchIndex", new java.util.TreeMap<>(s.getFollowerMatchIndexMap()));
    return out;
  }

  private static Map<String, Object> range(KeyRange k) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("from", k.from() == null ? null : Bytes.toDisplayString(k.from()));
    r.put("to", k.to() == null ? null : Bytes.toDisplayString(k.to()));
    return r;
  }
}
