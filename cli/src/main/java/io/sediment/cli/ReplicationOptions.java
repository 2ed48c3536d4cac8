package io.sediment.cli;

import io.sediment.om.core.ReplicationText;
import io.sediment.proto.om.ReplicationConfig;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code -t/--type} and {@code -r/--replication}, as Ozone's shell takes them ({@code ozone sh key
 * put -t RATIS -r THREE}, {@code -t EC -r rs-6-3-1024k}): a key's or file's replication config,
 * or a bucket's default. Only the form is checked here (a usage error, nothing sent); whether the
 * config is allowed (EC data-parity, chunk size, codec) the server decides (INVALID_ARGUMENT,
 * exit 1).
 */
final class ReplicationOptions {

  @Option(names = {"-t", "--type"}, paramLabel = "TYPE",
      description = "Replication type: RATIS, STAND_ALONE or EC (default: inferred from "
          + "--replication, EC for an EC string, else RATIS).")
  String type;

  @Option(names = {"-r", "--replication"}, paramLabel = "REPLICATION",
      description = "ONE or THREE for RATIS and STAND_ALONE (default THREE); for EC "
          + "CODEC-DATA-PARITY-CHUNKSIZE: rs-3-2-1024k, rs-6-3-1024k, rs-10-4-1024k, "
          + "xor-2-1-1024k (chunk 512k to 4096k).")
  String replication;

  /** Whether either option was given. */
  boolean given() {
    return type != null || replication != null;
  }

  /**
   * The config the options name, or null when neither is given.
   *
   * @throws CommandLine.ParameterException (a usage error) for a type, factor or EC string of
   *     no known form
   */
  ReplicationConfig config(CommandLine cmd) {
    try {
      return ReplicationText.parse(type, replication);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cmd, e.getMessage());
    }
  }
}
