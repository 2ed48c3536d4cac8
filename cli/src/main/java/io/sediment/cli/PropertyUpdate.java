package io.sediment.cli;

import java.util.function.Consumer;
import java.util.function.LongConsumer;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options {@code volume update} and {@code bucket update} share: a new owner and quotas, each
 * changed only when given (a quota of 0 is unlimited).
 */
final class PropertyUpdate {

  @Option(names = {"-u", "--user"}, paramLabel = "OWNER", description = "The new owner.")
  String owner;

  @Option(names = "--space-quota", paramLabel = "SIZE",
      description = "Bytes, with an optional unit B, KB, MB, GB, TB, PB (powers of 1024).")
  String spaceQuota;

  @Option(names = "--namespace-quota", paramLabel = "N",
      description = "Most entries: a volume's buckets and keys, a bucket's keys.")
  Long namespaceQuota;

  /**
   * Hands each value given to its setter.
   *
   * @throws CommandLine.ParameterException (a usage error) for a bad size, a negative count, or
   *     when nothing is given
   */
  void applyTo(CommandLine cmd, Consumer<String> setOwner, LongConsumer setQuotaInBytes,
      LongConsumer setQuotaInNamespace) {
    if (!given()) {
      throw new CommandLine.ParameterException(cmd,
          "Nothing to update: give --user, --space-quota or --namespace-quota");
    }
    applyGiven(cmd, setOwner, setQuotaInBytes, setQuotaInNamespace);
  }

  /** Whether any of the options was given. */
  boolean given() {
    return owner != null || spaceQuota != null || namespaceQuota != null;
  }

  /**
   * {@link #applyTo} for a command that has more to update, which checks that something is given.
   *
   * @throws CommandLine.ParameterException (a usage error) for a bad size or a negative count
   */
  void applyGiven(CommandLine cmd, Consumer<String> setOwner, LongConsumer setQuotaInBytes,
      LongConsumer setQuotaInNamespace) {
    if (owner != null) {
      setOwner.accept(owner);
    }
    if (spaceQuota != null) {
      setQuotaInBytes.accept(Sizes.parse(cmd, "--space-quota", spaceQuota));
    }
    if (namespaceQuota != null) {
      if (namespaceQuota < 0) {
        throw new CommandLine.ParameterException(cmd,
            "--namespace-quota must not be negative: " + namespaceQuota);
      }
      setQuotaInNamespace.accept(namespaceQuota);
    }
  }
}
