package io.sediment.cli;

import io.sediment.om.ha.HaOptions;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.ha.HaPeers;
import io.sediment.om.ha.OmReplica;
import io.sediment.om.tls.TlsMaterial;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The options of {@code sediment serve} that make it one replica of a replicated group (Apache
 * Ratis): its id and the group's peers, both or neither.
 */
final class HaServeOptions {

  @Option(names = "--ha-id", paramLabel = "ID",
      description = "Serve as replica ID of the group --peers names (each replica with its own "
          + "--data). Without it: a single node.")
  String id;

  @Option(names = "--peers", paramLabel = "ID=HOST:RAFT_PORT[:RPC_PORT],...",
      description = "Every replica of the group, this one included: its id, the host and port "
          + "of its Raft server and, so that followers can name the leader to clients, its gRPC "
          + "port; e.g. om1=127.0.0.1:9872:9862,om2=127.0.0.1:9873:9863,om3=127.0.0.1:9874:9864.")
  String peers;

  @Option(names = "--ha-group", paramLabel = "NAME", defaultValue = HaOptions.DEFAULT_GROUP_NAME,
      description = "Name of the group; all its replicas use the same (default: ${DEFAULT-VALUE}).")
  String group;

  @Option(names = "--election-timeout", paramLabel = "DURATION", defaultValue = "1s",
      converter = Durations.class,
      description = "How long a follower waits without a leader before it starts an election "
          + "(at most twice this); lower fails over faster, too low elects needlessly on a "
          + "loaded machine (default: ${DEFAULT-VALUE}).")
  Duration electionTimeout;

  @Option(names = "--follower-reads",
      description = "Followers serve reads from what they have applied (possibly a moment "
          + "behind the leader) instead of naming the leader.")
  boolean followerReads;

  @Option(names = "--ha-join",
      description = "Start as a new replica waiting to be added to a running group (by `ha "
          + "add-peer` sent to its leader), instead of a member of the group --peers names; "
          + "--peers must name this replica and may name the group's others. Once added, the "
          + "members its log records take precedence over --peers and this flag at every "
          + "restart.")
  boolean join;

  boolean enabled() {
    return id != null;
  }

  void validate(CommandLine cmd) {
    if ((id == null) != (peers == null)) {
      throw new CommandLine.ParameterException(cmd, "--ha-id and --peers go together");
    }
    if (id == null) {
      if (join) {
        throw new CommandLine.ParameterException(cmd, "--ha-join needs --ha-id and --peers");
      }
      return;
    }
    try {
      options(Path.of("."));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cmd, e.getMessage());
    }
  }

  /**
   * Starts this replica over {@code store}, its Raft log under {@code ratisDir}: a member of the
   * group, or (with {@code --ha-join}) a replica waiting to be added to it. With {@code tls}
   * (null: plaintext) its Raft traffic and snapshot copies go over mutual TLS.
   */
  OmReplica start(OmMetadataStore store, Path ratisDir, TlsMaterial tls) {
    HaOptions options = tls == null ? options(ratisDir) : options(ratisDir).withTls(tls);
    return join ? OmReplica.join(store, options) : OmReplica.start(store, options);
  }

  /** This replica's options, its Raft log under {@code ratisDir}. */
  HaOptions options(Path ratisDir) {
    HaOptions o = HaOptions.of(id, HaPeers.parse(peers), ratisDir)
        .withElectionTimeout(electionTimeout)
        .withFollowerReads(followerReads);
    return o.withGroupName(group);
  }
}
