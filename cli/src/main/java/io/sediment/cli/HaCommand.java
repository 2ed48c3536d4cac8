package io.sediment.cli;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.GetReplicationStatusRequest;
import io.sediment.proto.om.GetReplicationStatusResponse;
import io.sediment.proto.om.TransferLeaderRequest;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sediment ha}: the replicated group's state, as each replica reports it. */
@Command(name = "ha", mixinStandardHelpOptions = true,
    description = "Operate a replicated group of `sediment serve --ha-id`.",
    subcommands = {HaCommand.Status.class, HaCommand.TransferLeader.class})
final class HaCommand implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Name a subcommand: status, transfer-leader");
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
      }
      out.flush();
      return anyLeader ? 0 : Sediment.EXIT_FAILURE;
    }

    private GetReplicationStatusResponse ask(CommandLine cmd, String target) {
      ManagedChannel channel = TargetOptions.channelTo(cmd, target.trim());
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
      // Leave the call's deadline two seconds beyond the wait for the new leader.
      long waitMillis =
          Math.min(Integer.MAX_VALUE, Math.max(1000, target.timeoutSeconds * 1000 - 2000));
      return adminCall(admin -> admin.transferLeader(TransferLeaderRequest.newBuilder()
              .setToReplica(to).setTimeoutMillis((int) waitMillis).build()),
          done -> spec.commandLine().getOut().printf("%s leads the group now.%n", to));
    }
  }
}
