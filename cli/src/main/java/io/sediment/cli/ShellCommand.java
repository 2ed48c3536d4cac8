package io.sediment.cli;

import io.sediment.proto.om.OmServiceGrpc;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * A subcommand of the object shell ({@code volume}, {@code bucket}, {@code key}, {@code dir},
 * {@code file}, {@code mpu}, {@code openkeys}): the server options, {@code --json}, and one
 * channel for its calls. {@link #call()} checks the arguments ({@link #check}) before anything is
 * sent, then runs {@link #run} with the channel open; a failed call propagates as the command's
 * failure (exit 1, its gRPC status and message on stderr). Output goes to the command line's
 * writer: {@link #print} for one object, {@link #row} for each of a listing's.
 */
abstract class ShellCommand extends ClientCommand {

  @Option(names = "--json", description = "Print JSON: one object for create, info, update and "
      + "rename, one object per line for list, {\"deleted\":\"/PATH\"} for delete (numbers as "
      + "numbers, every field present; the field names of Recon's JSON).")
  boolean json;

  private OmServiceGrpc.OmServiceBlockingStub stub;

  /** Checks the arguments, as usage errors; nothing has been sent yet. */
  void check() {
  }

  /** The command's calls, made through {@link #om()}. */
  abstract void run();

  @Override
  public final Integer call() {
    check();
    return target.om(spec.commandLine(), s -> {
      stub = s;
      run();
    });
  }

  /** The stub with the command's deadline for its next call; only inside {@link #run}. */
  OmServiceGrpc.OmServiceBlockingStub om() {
    return target.deadline(stub);
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  CommandLine cmd() {
    return spec.commandLine();
  }

  /**
   * One object: as JSON with {@code --json}, else one {@code field  value} line per field
   * ({@code metadata} as {@code k=v} pairs, times in UTC, {@code replicationConfig} as
   * {@code TYPE/REPLICATION}, e.g. {@code EC/rs-6-3-1024k}, or {@code none}).
   */
  void print(Map<String, Object> fields) {
    PrintWriter out = out();
    if (json) {
      out.println(Json.write(fields));
      return;
    }
    for (Map.Entry<String, Object> e : fields.entrySet()) {
      Object v = e.getValue();
      if (e.getKey().endsWith("Time") && v instanceof Long t && t > 0) {
        v = LsCommand.TIME.format(java.time.Instant.ofEpochMilli(t)) + " UTC";
      } else if (e.getKey().equals("replicationConfig")) {
        v = v instanceof Map<?, ?> r ? r.get("replicationType") + "/" + r.get("replication")
            : "none (keys get the server's default)";
      }
      out.printf("%-18s %s%n", e.getKey(), text(v));
    }
  }

  /** One row of a listing: {@code fields} as JSON with {@code --json}, else {@code line}. */
  void row(Map<String, ?> fields, String line) {
    out().println(json ? Json.write(fields) : line);
  }

  /** A one-line report of a change: {@code fields} as JSON with {@code --json}, else {@code line}. */
  void done(Map<String, ?> fields, String line) {
    row(fields, line);
  }

  /** Reports a deletion: {@code {"deleted":"/ADDRESS"}} with {@code --json}, else {@code line}. */
  void deleted(ObjectAddress at, String line) {
    done(Map.of("deleted", "/" + at), line);
  }

  private static String text(Object v) {
    if (v instanceof Map<?, ?> m) {
      StringBuilder b = new StringBuilder();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        b.append(b.length() == 0 ? "" : ", ").append(e.getKey()).append('=').append(e.getValue());
      }
      return b.toString();
    }
    return String.valueOf(v);
  }

  static String nz(String s) {
    return s == null ? "" : s;
  }
}
