package io.sediment.om.ha;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.metrics.MetricRegistries;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.metrics.impl.RatisMetricRegistryImpl;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.thirdparty.com.codahale.metrics.Counter;
import org.apache.ratis.thirdparty.com.codahale.metrics.Gauge;
import org.apache.ratis.thirdparty.com.codahale.metrics.Histogram;
import org.apache.ratis.thirdparty.com.codahale.metrics.Meter;
import org.apache.ratis.thirdparty.com.codahale.metrics.Metric;
import org.apache.ratis.thirdparty.com.codahale.metrics.Snapshot;
import org.apache.ratis.thirdparty.com.codahale.metrics.Timer;

/**
 * Ratis' own metrics of one replica on {@code /prom}, read at each scrape from the registries
 * Ratis keeps in {@link MetricRegistries#global()}: only the registries of this replica in its
 * group (prefix {@code <id>@group-<group>}) and of its server (prefix {@code <id>}), so a JVM that
 * runs several replicas shows each its own.
 *
 * <p>Names: {@code <application>_<component>_<metric>}, the metric's camelCase turned into
 * snake_case, for example {@code ratis_server_client_write_request_seconds} or
 * {@code ratis_leader_election_election_count}. A metric Ratis names after a peer (the leader's
 * {@code follower_om2_match_index}, {@code om2_peerCommitIndex}) is one metric with a
 * {@code peer} label instead. Types: gauges with a numeric value are gauges, counters and meters
 * counters (their count); timers are summaries in seconds and histograms unitless summaries, each
 * with its count and the 0.5, 0.95 and 0.99 quantiles of Ratis' sliding reservoir (no sum: Ratis
 * does not keep one).
 *
 * <p>A metric Ratis removes (a follower's, after its leader steps down) disappears at the next
 * scrape. Thread-safe.
 */
final class RatisMetrics implements MultiCollector {

  private static final double[] QUANTILES = {0.5, 0.95, 0.99};
  private static final double NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

  private final String memberId;
  private final String serverId;
  /** The group's peer ids, longest first, so that one id that extends another is found first. */
  private final List<String> peers;

  RatisMetrics(HaOptions options) {
    this.serverId = options.selfId();
    this.memberId = RaftGroupMemberId.valueOf(RaftPeerId.valueOf(options.selfId()),
        OmReplica.groupId(options.groupName())).toString();
    this.peers = options.peers().all().stream().map(HaPeers.Peer::id)
        .sorted(Comparator.comparingInt(String::length).reversed()).toList();
  }

  @Override
  public MetricSnapshots collect() {
    Map<String, Family> families = new LinkedHashMap<>();
    for (RatisMetricRegistry registry : MetricRegistries.global().getMetricRegistries()) {
      MetricRegistryInfo info = registry.getMetricRegistryInfo();
      if (!(registry instanceof RatisMetricRegistryImpl impl)
          || !(info.getPrefix().equals(memberId) || info.getPrefix().equals(serverId))) {
        continue;
      }
      // Ratis' full names are "<application>.<component>.<prefix>.<metric>".
      String fullPrefix = info.getApplicationName() + "." + info.getMetricsComponentName() + "."
          + info.getPrefix() + ".";
      String family = snake(info.getApplicationName()) + "_"
          + snake(info.getMetricsComponentName()) + "_";
      for (Map.Entry<String, Metric> m :
          impl.getDropWizardMetricRegistry().getMetrics().entrySet()) {
        if (m.getKey().startsWith(fullPrefix)) {
          add(families, family, m.getKey().substring(fullPrefix.length()), m.getValue());
        }
      }
    }
    List<MetricSnapshot> out = new ArrayList<>();
    for (Family f : families.values()) {
      out.add(f.build());
    }
    return new MetricSnapshots(out);
  }

  private void add(Map<String, Family> families, String family, String metric, Metric value) {
    String peer = null;
    for (String p : peers) {
      String stripped = withoutPeer(metric, p);
      if (stripped != null) {
        peer = p;
        metric = stripped;
        break;
      }
    }
    Labels labels = peer == null ? Labels.EMPTY : Labels.of("peer", peer);
    String help = "Ratis' " + metric + (peer == null ? "" : " (per peer)");
    String base = family + snake(metric);
    if (value instanceof Gauge<?> g) {
      Object v;
      try {
        v = g.getValue();
      } catch (RuntimeException unreadable) {
        return; // a gauge whose source is gone (a closing division): nothing to show
      }
      if (v instanceof Number n) {
        family(families, name(base), Kind.GAUGE, help, labels).gauges
            .add(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(n.doubleValue())
                .labels(labels).build());
      }
    } else if (value instanceof Counter c) {
      counter(families, base, help, labels, c.getCount());
    } else if (value instanceof Meter m) {
      counter(families, base, help, labels, m.getCount());
    } else if (value instanceof Timer t) {
      summary(families, name(base + "_seconds"), help, labels, t.getCount(), t.getSnapshot(),
          NANOS_PER_SECOND);
    } else if (value instanceof Histogram h) {
      summary(families, name(base), help, labels, h.getCount(), h.getSnapshot(), 1);
    }
  }

  /** {@code metric} without peer {@code p}'s id as a whole underscore-separated part, or null. */
  static String withoutPeer(String metric, String p) {
    if (metric.startsWith(p + "_")) {
      return metric.substring(p.length() + 1);
    }
    int i = metric.indexOf("_" + p + "_");
    return i < 0 ? null : metric.substring(0, i) + metric.substring(i + p.length() + 1);
  }

  private static void counter(Map<String, Family> families, String base, String help,
      Labels labels, long count) {
    family(families, name(base), Kind.COUNTER, help, labels).counters
        .add(CounterSnapshot.CounterDataPointSnapshot.builder().value(Math.max(0, count))
            .labels(labels).build());
  }

  private static void summary(Map<String, Family> families, String name, String help,
      Labels labels, long count, Snapshot s, double divisor) {
    List<Quantile> q = new ArrayList<>();
    for (double quantile : QUANTILES) {
      q.add(new Quantile(quantile, s.getValue(quantile) / divisor));
    }
    family(families, name, Kind.SUMMARY, help, labels).summaries
        .add(SummarySnapshot.SummaryDataPointSnapshot.builder().count(count)
            .quantiles(Quantiles.of(q)).labels(labels).build());
  }

  /**
   * The family {@code name}, or a detached one (whose points are dropped) when the name is
   * already another type's or already has a point with {@code labels}: the first one is kept.
   */
  private static Family family(Map<String, Family> families, String name, Kind kind,
      String help, Labels labels) {
    Family f = families.computeIfAbsent(name, n -> new Family(n, kind, help));
    return f.kind == kind && f.labels.add(labels) ? f : new Family(name, kind, help);
  }

  /** A valid Prometheus name, without a suffix the exposition reserves ({@code _total}, ...). */
  private static String name(String base) {
    return PrometheusNaming.sanitizeMetricName(base);
  }

  /** {@code appendEntryCount} as {@code append_entry_count}; other characters as underscores. */
  static String snake(String s) {
    StringBuilder b = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isUpperCase(c) && i > 0 && !Character.isUpperCase(s.charAt(i - 1))
          && s.charAt(i - 1) != '_') {
        b.append('_');
      }
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      b.append(ok ? Character.toLowerCase(c) : '_');
    }
    return b.toString().replaceAll("_+", "_").toLowerCase(Locale.ROOT);
  }

  private enum Kind { GAUGE, COUNTER, SUMMARY }

  /** The data points collected under one Prometheus name. */
  private static final class Family {
    final String name;
    final Kind kind;
    final String help;
    final java.util.Set<Labels> labels = new java.util.HashSet<>();
    final List<GaugeSnapshot.GaugeDataPointSnapshot> gauges = new ArrayList<>();
    final List<CounterSnapshot.CounterDataPointSnapshot> counters = new ArrayList<>();
    final List<SummarySnapshot.SummaryDataPointSnapshot> summaries = new ArrayList<>();

    Family(String name, Kind kind, String help) {
      this.name = name;
      this.kind = kind;
      this.help = help;
    }

    MetricSnapshot build() {
      return switch (kind) {
        case GAUGE -> {
          GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
          gauges.forEach(b::dataPoint);
          yield b.build();
        }
        case COUNTER -> {
          CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help);
          counters.forEach(b::dataPoint);
          yield b.build();
        }
        case SUMMARY -> {
          SummarySnapshot.Builder b = SummarySnapshot.builder().name(name).help(help);
          summaries.forEach(b::dataPoint);
          yield b.build();
        }
      };
    }
  }
}
