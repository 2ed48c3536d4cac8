package io.sediment.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.metrics.MetricRegistries;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.metrics.impl.RatisMetricRegistryImpl;
import org.apache.ratis.thirdparty.com.codahale.metrics.Gauge;
import org.apache.ratis.thirdparty.com.codahale.metrics.Metric;
import org.apache.ratis.thirdparty.com.codahale.metrics.Snapshot;
import org.apache.ratis.thirdparty.com.codahale.metrics.Timer;

/**
 * Where a replicated write spends its time, from Ratis' own metrics in this JVM: every timer
 * (count, mean and 99th percentile in milliseconds; Ratis' reservoirs weigh recent samples most)
 * and the log worker's last flush batch size, of one replica. Not thread-safe against registries
 * being added; read once, after the load.
 */
final class RatisTimers {

  private RatisTimers() {
  }

  /**
   * One line per timer that ran and per numeric gauge of the log worker, of the registries whose
   * prefix starts with {@code peerId + "@"}, sorted by component and name.
   */
  static Map<String, String> of(String peerId) {
    Map<String, String> out = new TreeMap<>();
    for (RatisMetricRegistry r : MetricRegistries.global().getMetricRegistries()) {
      MetricRegistryInfo info = r.getMetricRegistryInfo();
      if (!info.getPrefix().startsWith(peerId + "@")
          || !(r instanceof RatisMetricRegistryImpl impl)) {
        continue;
      }
      String component = info.getMetricsComponentName();
      for (Map.Entry<String, Metric> e
          : impl.getDropWizardMetricRegistry().getMetrics().entrySet()) {
        String name = e.getKey().substring(e.getKey().lastIndexOf('.') + 1);
        if (e.getValue() instanceof Timer t && t.getCount() > 0) {
          Snapshot s = t.getSnapshot();
          out.put(component + "." + name, String.format("count=%d mean=%.2fms p99=%.2fms",
              t.getCount(), millis(s.getMean()), millis(s.get99thPercentile())));
        } else if (component.equals("log_worker") && e.getValue() instanceof Gauge<?> g
            && g.getValue() instanceof Number n) {
          out.put(component + "." + name, n.toString());
        }
      }
    }
    return out;
  }

  private static double millis(double nanos) {
    return nanos / TimeUnit.MILLISECONDS.toNanos(1);
  }
}
