package io.sediment.cli;

import io.sediment.om.audit.AuditInterceptor;
import io.sediment.om.audit.AuditLogFile;
import io.sediment.om.audit.AuditReads;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options of {@code sediment serve} for its audit log: where it goes (or nowhere) and which
 * successful reads it records.
 */
final class ServeAuditOptions {

  /** The value of --audit-log that writes no audit log. */
  static final String NONE = "none";

  @Option(names = "--audit-log", paramLabel = "FILE|none",
      description = "Write one JSON line per gRPC call (time, principal, remote address, RPC, "
          + "resource, status, latency) to FILE, rolled over daily and at 100 MiB, kept 30 "
          + "days and 10 GiB; `none` writes no audit log (default: DATA/logs/audit.log).")
  String file;

  @Option(names = "--audit-reads", paramLabel = "all|none|sample:N", defaultValue = "all",
      description = "Which successful reads the audit log records: all, none, or the first of "
          + "every N; writes, failures and denials are always recorded "
          + "(default: ${DEFAULT-VALUE}).")
  String reads;

  private AuditReads parsedReads;

  /** Refuses, as usage errors, a blank or directory --audit-log and a bad --audit-reads. */
  void validate(CommandLine cmd) {
    try {
      parsedReads = AuditReads.parse(reads);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cmd, "--audit-reads: " + e.getMessage());
    }
    if (file != null && file.isBlank()) {
      throw new CommandLine.ParameterException(cmd, "--audit-log must not be blank (`none` "
          + "writes no audit log)");
    }
    if (file != null && !file.equals(NONE) && Files.isDirectory(Path.of(file))) {
      throw new CommandLine.ParameterException(cmd, "--audit-log names a file, not the "
          + "directory " + file);
    }
  }

  /** The audit log file under {@code dataDir}, or null with {@code --audit-log none}. */
  Path file(Path dataDir) {
    if (NONE.equals(file)) {
      return null;
    }
    return file == null ? StoreDirs.logs(dataDir).resolve("audit.log")
        : Path.of(file).toAbsolutePath().normalize();
  }

  /**
   * Starts writing the audit log, or returns null with {@code --audit-log none}.
   *
   * @throws CliFailure if it cannot be written
   */
  AuditLogFile open(Path dataDir) {
    Path f = file(dataDir);
    if (f == null) {
      return null;
    }
    try {
      return AuditLogFile.open(f, AuditLogFile.Rotation.DEFAULT);
    } catch (IllegalStateException e) {
      throw new CliFailure(e.getMessage() + " (pick another file with --audit-log)", e);
    }
  }

  /** The interceptor writing to {@code file}. */
  AuditInterceptor interceptor(AuditLogFile file) {
    return new AuditInterceptor(file.logger(), parsedReads);
  }

  /** One start-up line. */
  String describe(AuditLogFile open) {
    return open == null ? "Audit log: none (--audit-log none)"
        : "Audit log: " + open.file() + " (successful reads: " + parsedReads + ")";
  }
}
