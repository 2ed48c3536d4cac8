package io.sediment.cli;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.AbstractStub;
import io.sediment.om.client.OmClient;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.GetReplicationStatusRequest;
import io.sediment.proto.om.GetReplicationStatusResponse;
import io.sediment.proto.om.OmServiceGrpc;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code --target}, {@code --timeout} and {@code --tls-*} ({@link ClientTlsOptions}): where a client command finds a running server, and how it
 * calls it: {@link #om} and {@link #admin} open a channel, hand the command a stub, flush the
 * command's output once its calls return, and shut the channel down (also when a call fails).
 */
final class TargetOptions {

  static final String DEFAULT_TARGET = OmGrpcServer.DEFAULT_HOST + ":" + OmGrpcServer.DEFAULT_PORT;

  @Option(names = "--target", paramLabel = "HOST:PORT[,...]", defaultValue = DEFAULT_TARGET,
      description = "gRPC address of a running `sediment serve`, or of every replica of a "
          + "replicated group: the command then goes to the one that leads "
          + "(default: ${DEFAULT-VALUE}).")
  String target = DEFAULT_TARGET;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
      description = "Deadline of each call in seconds (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds = 60;

  @CommandLine.Mixin
  ClientTlsOptions tls = new ClientTlsOptions();

  @CommandLine.Mixin
  ConfigOption config = new ConfigOption();

  /** {@code stub} with this command's deadline ({@code --timeout}) for its next call. */
  <S extends AbstractStub<S>> S deadline(S stub) {
    return stub.withDeadlineAfter(timeoutSeconds, TimeUnit.SECONDS);
  }

  /**
   * Runs {@code calls} with an OmService stub on a new channel to the target; the calls take their
   * deadline from {@link #deadline}. With several targets (a replicated group), each call goes to
   * the leader and follows a failover ({@link OmClient#asChannel()}: retried with the same ids, so
   * a write is not applied twice), each within {@code --timeout}. Returns 0, the command's exit
   * code; a failed call propagates.
   */
  int om(CommandLine cmd, Consumer<OmServiceGrpc.OmServiceBlockingStub> calls) {
    if (target.indexOf(',') < 0) {
      return onChannel(cmd, channel -> calls.accept(OmServiceGrpc.newBlockingStub(channel)));
    }
    // Several replicas: every call follows the leader, also when it changes mid-command.
    checkTimeout(cmd);
    List<String> targets = new ArrayList<>();
    for (String t : target.split(",")) {
      channelTo(cmd, t.trim()).shutdownNow(); // checks the address
      targets.add(t.trim());
    }
    try (OmClient client = OmClient.connect(targets, OmClient.Options.defaults()
        .withCallTimeout(Duration.ofSeconds(timeoutSeconds)), tls.credentials(cmd))) {
      calls.accept(OmServiceGrpc.newBlockingStub(client.asChannel()));
      cmd.getOut().flush();
    }
    return 0;
  }

  /** {@link #om} for the AdminService. */
  int admin(CommandLine cmd, Consumer<AdminServiceGrpc.AdminServiceBlockingStub> calls) {
    return onChannel(cmd, channel -> calls.accept(AdminServiceGrpc.newBlockingStub(channel)));
  }

  private int onChannel(CommandLine cmd, Consumer<ManagedChannel> calls) {
    ManagedChannel channel = open(cmd);
    try {
      calls.accept(channel);
      cmd.getOut().flush();
    } finally {
      close(channel);
    }
    return 0;
  }

  /**
   * A channel to the target (TLS with {@code --tls-ca}/{@code --tls-cert}, else plaintext); the
   * caller shuts it down. With several targets, to the
   * first that says it leads its group, or names the leader, or serves alone; else to the first.
   */
  ManagedChannel open(CommandLine cmd) {
    checkTimeout(cmd);
    if (target.indexOf(',') < 0) {
      return channelTo(cmd, target);
    }
    String[] targets = target.split(",");
    for (String t : targets) {
      ManagedChannel channel = channelTo(cmd, t.trim());
      String leader = leaderSeenFrom(channel);
      if (leader == null) {
        close(channel);
        continue;
      }
      if (leader.isEmpty() || leader.equals(t.trim())) {
        return channel;
      }
      close(channel);
      return channelTo(cmd, leader);
    }
    return channelTo(cmd, targets[0].trim());
  }

  /**
   * Where {@code channel}'s server says writes go: "" for itself (a single node, or the leader),
   * the leader's address, or null if it does not answer or knows no leader.
   */
  private String leaderSeenFrom(ManagedChannel channel) {
    try {
      GetReplicationStatusResponse s = AdminServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(3, TimeUnit.SECONDS)
          .getReplicationStatus(GetReplicationStatusRequest.getDefaultInstance());
      if (!s.getReplicated() || "LEADER".equals(s.getRole())) {
        return "";
      }
      return s.getLeaderAddress().isEmpty() ? null : s.getLeaderAddress();
    } catch (StatusRuntimeException e) {
      return null;
    }
  }

  /** Refuses a {@code --timeout} below one second as a usage error. */
  void checkTimeout(CommandLine cmd) {
    if (timeoutSeconds < 1) {
      throw new CommandLine.ParameterException(cmd, "--timeout must be at least 1 second");
    }
  }

  /** A channel to {@code target} with this command's credentials ({@code --tls-*}). */
  ManagedChannel channelTo(CommandLine cmd, String target) {
    return channelTo(cmd, target, tls.credentials(cmd));
  }

  /**
   * A channel to {@code target} ({@code HOST:PORT}) with {@code credentials}.
   *
   * @throws CommandLine.ParameterException if {@code target} is not {@code HOST:PORT}
   */
  static ManagedChannel channelTo(CommandLine cmd, String target, ChannelCredentials credentials) {
    int colon = target.lastIndexOf(':');
    if (colon <= 0 || colon == target.length() - 1) {
      throw new CommandLine.ParameterException(cmd,
          "--target must be HOST:PORT, e.g. " + DEFAULT_TARGET + ": '" + target + "'");
    }
    int port;
    try {
      port = Integer.parseInt(target.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new CommandLine.ParameterException(cmd, "--target port is not a number: '" + target + "'");
    }
    if (port < 1 || port > 65535) {
      throw new CommandLine.ParameterException(cmd, "--target port must be in [1, 65535]: " + port);
    }
    return Grpc.newChannelBuilderForAddress(target.substring(0, colon), port, credentials).maxInboundMessageSize(64 * 1024 * 1024).build();
  }

  static void close(ManagedChannel channel) {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
