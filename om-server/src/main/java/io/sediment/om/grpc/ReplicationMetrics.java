package io.sediment.om.grpc;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sediment.om.requests.Replication;
import io.sediment.proto.om.GetReplicationStatusResponse;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * A replica's place in its group on {@code /prom}, read from {@link Replication#status()} at each
 * scrape: {@code sediment_replica_leader} (1 on the leader, else 0), {@code _term},
 * {@code _commit_index}, {@code _applied_index}, {@code _apply_lag} (committed entries not applied
 * here yet) and, on the leader, {@code _follower_match_index{follower}}.
 *
 * <p>Registered once per registry (registering twice fails). Thread-safe.
 */
final class ReplicationMetrics {

  private ReplicationMetrics() {
  }

  static void register(PrometheusRegistry registry, Replication replication) {
    gauge(registry, replication, "sediment_replica_leader",
        "1 while this replica is the group's leader, else 0",
        s -> "LEADER".equals(s.getRole()) ? 1 : 0);
    gauge(registry, replication, "sediment_replica_term", "This replica's current Raft term",
        GetReplicationStatusResponse::getTerm);
    gauge(registry, replication, "sediment_replica_commit_index",
        "The last log index this replica knows committed", s -> s.getCommitIndex());
    gauge(registry, replication, "sediment_replica_applied_index",
        "The last log index this replica's store applied", s -> s.getAppliedIndex());
    gauge(registry, replication, "sediment_replica_apply_lag",
        "Committed log entries this replica has not applied yet",
        s -> Math.max(0, s.getCommitIndex() - s.getAppliedIndex()));
    GaugeWithCallback.builder()
        .name("sediment_replica_follower_match_index")
        .help("On the leader: each follower's commit index as the leader last heard it")
        .labelNames("follower")
        .callback(cb -> {
          for (Map.Entry<String, Long> f :
              replication.status().getFollowerMatchIndexMap().entrySet()) {
            cb.call(f.getValue(), f.getKey());
          }
        })
        .register(registry);
  }

  private static void gauge(PrometheusRegistry registry, Replication replication, String name,
      String help, ToDoubleFunction<GetReplicationStatusResponse> value) {
    GaugeWithCallback.builder().name(name).help(help)
        .callback(cb -> cb.call(value.applyAsDouble(replication.status())))
        .register(registry);
  }
}
