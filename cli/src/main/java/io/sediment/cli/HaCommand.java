package io.sediment.cli;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.sediment.om.ha.HaPeers;
import io.sediment.proto.om.AddPeerRequest;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.GetReplicationStatusRequest;
import io.sediment.proto.om.GetReplicationStatusResponse;
import io.sediment.proto.om.GroupMember;
import io.sediment.proto.om.RemovePeerRequest;
import io.sediment.proto.om.TransferLeaderRequest;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sediment ha}: the replicated group's state, as each replica reports it. */
@Command(name = "ha", mixinStandardHelpOptions = true,
    description = "Operate a replicated group of `sediment serve --ha-id`.",
    subcommands = {HaCommand.Status.class, HaCommand.TransferLeader.class,
        HaCommand.AddPeer.class, HaCommand.RemovePeer.class})
final class HaCommand implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Name a subcommand: status, transfer-leader, add-peer, remove-peer");
  }

  /** {@code sediment ha status}: one line per replica. */
  @Command(name = "status", mixinStandardHelpOptions = true,
      description = {"Each replica's role, term, commit and applied index and lag behind the "
          + "leader, asked of every --target; a replica that does not answer is listed as "
          + "UNREACHABLE.", "Exit code 1 if no replica answered or none knows a leader."})
  static final class Status implements Callable<Integer> {

    @Option(names = "--target", paramLabel = "HOST:PORT[,HOST:PORT...]", required = true,
        split = ",", description = "The gRPC address of every replica to ask.")
    String[] targets;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "5",
        description = "Deadline of each replica's answer (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @CommandLine.Mixin
    ClientTlsOptions tls = new ClientTlsOptions();

    @CommandLine.Mixin
    ConfigOption config = new ConfigOption();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      CommandLine cmd = spec.commandLine();
      PrintWriter out = cmd.getOut();
      out.printf("%-22s %-10s %-10s %6s %10s %10s %6s  %s%n", "TARGET", "REPLICA", "ROLE", "TERM",
          "COMMIT", "APPLIED", "LAG", "LEADER");
      boolean anyLeader = false;
      long leaderApplied = -1;
      GetReplicationStatusResponse[] answers = new GetReplicationStatusResponse[targets.length];
      for (int i = 0; i < targets.length; i++) {
        answers[i] = ask(cmd, targets[i]);
        if (answers[i] != null && answers[i].getRole().equals("LEADER")) {
          leaderApplied = answers[i].getAppliedIndex();
        }
      }
      for (int i = 0; i < targets.length; i++) {
        GetReplicationStatusResponse r = answers[i];
        if (r == null) {
          out.printf("%-22s %-10s%n", targets[i], "UNREACHABLE");
          continue;
        }
        if (!r.getReplicated()) {
          out.printf("%-22s %-10s %-10s%n", targets[i], "-", "SINGLE");
          continue;
        }
        anyLeader |= !r.getLeaderId().isEmpty();
        String lag = leaderApplied < 0 ? "?" : Long.toString(
            Math.max(0, leaderApplied - r.getAppliedIndex()));
        out.printf("%-22s %-10s %-10s %6d %10d %10d %6s  %s%n", targets[i], r.getReplicaId(),
            r.getRole(), r.getTerm(), r.getCommitIndex(), r.getAppliedIndex(), lag,
            r.getLeaderId().isEmpty() ? "(election)" : r.getLeaderId()
                + (r.getLeaderAddress().isEmpty() ? "" : " at " + r.getLeaderAddress()));
        for (Map.Entry<String, Long> f : r.getFollowerMatchIndexMap().entrySet()) {
          out.printf("%-22s   follower %s has %d of %d%n", "", f.getKey(), f.getValue(),
              r.getCommitIndex());
        }
        if (r.getRole().equals("LEADER")) {
          out.printf("%-22s   members: %s%n", "", members(r.getMembersList()));
        } else if (r.getMembersCount() == 0) {
          out.printf("%-22s   not a member yet (started with --ha-join: add it with ha "
              + "add-peer)%n", "");
        }
      }
      out.flush();
      return anyLeader ? 0 : Sediment.EXIT_FAILURE;
    }

    private GetReplicationStatusResponse ask(CommandLine cmd, String target) {
      ManagedChannel channel = TargetOptions.channelTo(cmd, target.trim(), tls.credentials(cmd));
      try {
        return AdminServiceGrpc.newBlockingStub(channel)
            .withDeadlineAfter(timeoutSeconds, TimeUnit.SECONDS)
            .getReplicationStatus(GetReplicationStatusRequest.getDefaultInstance());
      } catch (StatusRuntimeException e) {
        return null;
      } finally {
        TargetOptions.close(channel);
      }
    }
  }

  /** The group's members on one line: {@code om1 (raft HOST:PORT, rpc HOST:PORT), ...}. */
  static String members(List<GroupMember> members) {
    StringBuilder b = new StringBuilder();
    for (GroupMember m : members) {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(m.getReplicaId()).append(" (raft ").append(m.getRaftAddress());
      if (!m.getRpcAddress().isEmpty()) {
        b.append(", rpc ").append(m.getRpcAddress());
      }
      b.append(')');
    }
    return b.toString();
  }

  /** {@code sediment ha transfer-leader}: hands the leadership to another replica. */
  @Command(name = "transfer-leader", mixinStandardHelpOptions = true,
      description = {"Asks the leader at --target to hand the leadership to replica --to, and "
          + "waits until it leads (e.g. before stopping the leader's machine)."})
  static final class TransferLeader extends ClientCommand {

    @Option(names = "--to", paramLabel = "ID", required = true,
        description = "The replica id that is to lead.")
    String to;

    @Override
    public Integer call() {
      return adminCall(admin -> admin.transferLeader(TransferLeaderRequest.newBuilder()
              .setToReplica(to).setTimeoutMillis(serverWaitMillis(target)).build()),
          done -> spec.commandLine().getOut().printf("%s leads the group now.%n", to));
    }
  }

  /**
   * How long the server may wait for the group (a new leader, a membership change): the call's
   * deadline less two seconds, so the server's answer arrives before the deadline.
   */
  static int serverWaitMillis(TargetOptions target) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1000, target.timeoutSeconds * 1000 - 2000));
  }

  /** {@code sediment ha add-peer}: adds a replica to the group. */
  @Command(name = "add-peer", mixinStandardHelpOptions = true,
      description = {"Asks the leader at --target to add replica --peer to the group, and waits "
          + "until it has caught up and counts as a member. Start the new replica first, with "
          + "`serve --ha-id ID --peers ... --ha-join`."})
  static final class AddPeer extends ClientCommand {

    @Option(names = "--peer", paramLabel = "ID=HOST:RAFT_PORT:RPC_PORT", required = true,
        description = "The new replica: its id, the host and port of its Raft server and its "
            + "gRPC port (its serve --port), as in --peers.")
    String peer;

    @Override
    public Integer call() {
      HaPeers.Peer p = parse(spec.commandLine(), peer);
      return adminCall(admin -> admin.addPeer(AddPeerRequest.newBuilder().setReplicaId(p.id())
              .setHost(p.host()).setRaftPort(p.raftPort()).setRpcPort(p.rpcPort())
              .setTimeoutMillis(serverWaitMillis(target)).build()),
          done -> spec.commandLine().getOut().printf("Added %s. Members: %s%n", p.id(),
              members(done.getMembersList())));
    }

    static HaPeers.Peer parse(CommandLine cmd, String spec) {
      if (spec.contains(",")) {
        throw new CommandLine.ParameterException(cmd, "--peer names one replica: '" + spec + "'");
      }
      HaPeers.Peer p;
      try {
        p = HaPeers.parse(spec).all().get(0);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(cmd, "--peer: " + e.getMessage());
      }
      if (p.rpcPort() == null) {
        throw new CommandLine.ParameterException(cmd, "--peer '" + spec + "' lacks the gRPC "
            + "port (ID=HOST:RAFT_PORT:RPC_PORT): the group names it to clients when it leads");
      }
      return p;
    }
  }

  /** {@code sediment ha remove-peer}: removes a replica from the group. */
  @Command(name = "remove-peer", mixinStandardHelpOptions = true,
      description = {"Asks the leader at --target to remove replica --id from the group, and "
          + "waits until the group no longer counts it; then stop that replica's serve. To "
          + "remove the leader, move the leadership first (ha transfer-leader)."})
  static final class RemovePeer extends ClientCommand {

    @Option(names = "--id", paramLabel = "ID", required = true,
        description = "The replica id to remove.")
    String id;

    @Override
    public Integer call() {
      return adminCall(admin -> admin.removePeer(RemovePeerRequest.newBuilder().setReplicaId(id)
              .setTimeoutMillis(serverWaitMillis(target)).build()),
          done -> spec.commandLine().getOut().printf("Removed %s: stop its serve now. "
              + "Members: %s%n", id, members(done.getMembersList())));
    }
  }
}
