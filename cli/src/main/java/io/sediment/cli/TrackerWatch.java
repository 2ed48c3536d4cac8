package io.sediment.cli;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.db.codec.Bytes;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.CompactionEventProto;
import io.sediment.proto.om.GetTombstoneStatsRequest;
import io.sediment.proto.om.GetTombstoneStatsResponse;
import io.sediment.proto.om.HotRangeProto;
import io.sediment.proto.om.KeyRangeProto;
import io.sediment.proto.om.TableTombstones;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;

/**
 * What a server's tombstone tracker saw between two looks, for {@code sediment scan}: hot ranges
 * that appeared or gained slow passes, compactions that became pending, and compactions that
 * ended (any trigger), each once. Asks AdminService's GetTombstoneStats for every table over one
 * channel of its own. A server that refuses the call (PERMISSION_DENIED, UNAUTHENTICATED,
 * UNIMPLEMENTED) leaves the watch blind: {@link #changes} then says so once and reports nothing
 * after. Not thread-safe.
 */
final class TrackerWatch implements AutoCloseable {

  /** Answers that make the watch give up instead of failing the scan. */
  private static final Set<Status.Code> BLINDING = Set.of(Status.Code.PERMISSION_DENIED,
      Status.Code.UNAUTHENTICATED, Status.Code.UNIMPLEMENTED);

  private final TargetOptions target;
  private final ManagedChannel channel;
  private final AdminServiceGrpc.AdminServiceBlockingStub admin;
  /** Slow passes of each hot range last reported, by table and range. */
  private final Map<String, Long> hot = new HashMap<>();
  private final Set<String> pending = new HashSet<>();
  private final Set<String> events = new HashSet<>();
  /** Compaction requests the tracker had made at the last look; -1 before the first. */
  private long requested = -1;
  /** The sampled listings' totals at the last look. */
  private Sampled sampled = new Sampled(0, 0, 0);
  private String blindness;
  private boolean blindnessTold;

  /**
   * What changed since the last look: one line each, and the same as JSON values; {@code sampled}
   * is what the server's sampled listings did meanwhile, null when the watch is blind.
   */
  record Changes(List<String> lines, Map<String, Object> json, Sampled sampled) { }

  /**
   * What the server's sampled listings did between two looks, summed over every table: how many
   * closed, the tombstones they skipped, and their time in RocksDB's positionings and advances.
   */
  record Sampled(long scans, long tombstonesSkipped, long nativeNanos) {
    Sampled minus(Sampled o) {
      return new Sampled(scans - o.scans, tombstonesSkipped - o.tombstonesSkipped,
          nativeNanos - o.nativeNanos);
    }

    Map<String, Object> json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("scans", scans);
      m.put("tombstonesSkipped", tombstonesSkipped);
      m.put("nativeMillis", Math.round(nativeNanos / 1e4) / 100.0);
      return m;
    }
  }

  private TrackerWatch(TargetOptions target, ManagedChannel channel) {
    this.target = target;
    this.channel = channel;
    this.admin = AdminServiceGrpc.newBlockingStub(channel);
  }

  /**
   * Opens a channel to {@code target}'s server and takes the first look, whose state later looks
   * are compared with (what it sees is not reported). The caller closes the watch.
   */
  static TrackerWatch start(CommandLine cmd, TargetOptions target) {
    TrackerWatch w = new TrackerWatch(target, target.open(cmd));
    try {
      w.changes();
      w.blindnessTold = false;
      return w;
    } catch (RuntimeException e) {
      w.close();
      throw e;
    }
  }

  /**
   * Looks again and returns what changed since the last look: new or grown hot ranges, newly
   * pending compactions, compactions ended; empty lines when nothing changed.
   */
  Changes changes() {
    List<String> lines = new ArrayList<>();
    List<Object> hotJson = new ArrayList<>();
    List<Object> pendingJson = new ArrayList<>();
    List<Object> eventsJson = new ArrayList<>();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("hotRanges", hotJson);
    json.put("pendingCompactions", pendingJson);
    json.put("compactions", eventsJson);
    GetTombstoneStatsResponse r = look();
    if (r == null) {
      if (!blindnessTold) {
        lines.add(blindness);
        blindnessTold = true;
      }
      json.put("unavailable", blindness);
      return new Changes(lines, json, null);
    }
    Sampled total = new Sampled(0, 0, 0);
    for (TableTombstones t : r.getTablesList()) {
      total = new Sampled(total.scans() + t.getSampledScans(),
          total.tombstonesSkipped() + t.getSampledTombstonesSkipped(),
          total.nativeNanos() + t.getSampledNativeNanos());
      for (HotRangeProto h : t.getHotRangesList()) {
        String id = t.getTable() + range(h.getRange());
        Long before = hot.put(id, h.getSlowPasses());
        if (before == null || before != h.getSlowPasses()) {
          lines.add(String.format(Locale.ROOT, "%s hot range %s: %,d slow pass%s, %,d tombstones "
                  + "skipped", t.getTable(), range(h.getRange()), h.getSlowPasses(),
              h.getSlowPasses() == 1 ? "" : "es", h.getTombstonesSkipped()));
          Map<String, Object> m = rangeJson(t.getTable(), h.getRange());
          m.put("slowPasses", h.getSlowPasses());
          m.put("tombstonesSkipped", h.getTombstonesSkipped());
          hotJson.add(m);
        }
      }
      for (KeyRangeProto k : t.getPendingCompactionsList()) {
        if (pending.add(t.getTable() + range(k))) {
          lines.add(t.getTable() + " compaction pending " + range(k));
          pendingJson.add(rangeJson(t.getTable(), k));
        }
      }
    }
    long nowRequested = r.getCompactions().getRequested();
    if (requested >= 0 && nowRequested > requested) {
      long n = nowRequested - requested;
      lines.add(String.format(Locale.ROOT, "%s due: compaction%s requested (%,d since the server "
          + "started)", n == 1 ? "a hot range was" : n + " hot ranges were", n == 1 ? "" : "s",
          nowRequested));
    }
    json.put("compactionsRequested", requested < 0 ? 0 : nowRequested - requested);
    requested = nowRequested;
    for (CompactionEventProto e : r.getCompactions().getRecentList()) {
      String id = e.getTable() + range(e.getRange()) + e.getOutcome() + e.getTrigger()
          + e.getAtMillis() + "/" + e.getTombstonesBefore();
      if (events.add(id)) {
        lines.add(String.format(Locale.ROOT, "%s %s compaction %s %s: tombstones %,d -> %,d in "
                + "%,d ms", e.getTable(), e.getTrigger(), range(e.getRange()), e.getOutcome(),
            e.getTombstonesBefore(), e.getTombstonesAfter(), e.getDurationMillis()));
        Map<String, Object> m = rangeJson(e.getTable(), e.getRange());
        m.put("outcome", e.getOutcome());
        m.put("trigger", e.getTrigger());
        m.put("reason", e.getReason());
        m.put("tombstonesBefore", e.getTombstonesBefore());
        m.put("tombstonesAfter", e.getTombstonesAfter());
        m.put("durationMillis", e.getDurationMillis());
        m.put("atMillis", e.getAtMillis());
        eventsJson.add(m);
      }
    }
    Sampled delta = total.minus(sampled);
    sampled = total;
    json.put("sampled", delta.json());
    return new Changes(lines, json, delta);
  }

  /** The stats, or null once the server has refused them (and {@link #blindness} says why). */
  private GetTombstoneStatsResponse look() {
    if (blindness != null) {
      return null;
    }
    try {
      return target.deadline(admin)
          .getTombstoneStats(GetTombstoneStatsRequest.getDefaultInstance());
    } catch (StatusRuntimeException e) {
      if (!BLINDING.contains(e.getStatus().getCode())) {
        throw e;
      }
      blindness = "not shown: the server answered " + e.getStatus().getCode()
          + (e.getStatus().getDescription() == null ? "" : " (" + e.getStatus().getDescription()
          + ")") + " to GetTombstoneStats";
      return null;
    }
  }

  /** {@code [from, to)} in printable form, an empty end open. */
  static String range(KeyRangeProto k) {
    return "[" + (k.getFrom().isEmpty() ? "-inf" : Bytes.toDisplayString(k.getFrom().toByteArray()))
        + ", " + (k.getTo().isEmpty() ? "+inf" : Bytes.toDisplayString(k.getTo().toByteArray()))
        + ")";
  }

  /** As Recon's JSON: {@code table}, {@code from} and {@code to} (null for an open end). */
  private static Map<String, Object> rangeJson(String table, KeyRangeProto k) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table", table);
    m.put("from", k.getFrom().isEmpty() ? null : Bytes.toDisplayString(k.getFrom().toByteArray()));
    m.put("to", k.getTo().isEmpty() ? null : Bytes.toDisplayString(k.getTo().toByteArray()));
    return m;
  }

  @Override
  public void close() {
    TargetOptions.close(channel);
  }
}
