package io.sediment.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * The training run behind the jar's class-data sharing archive: the build runs it once with
 * {@code -XX:ArchiveClassesAtExit}, and the JVM then writes every class it loaded (parsed and
 * verified) to {@code cli/target/sediment.jsa}, which {@code bin/sediment} maps at start instead
 * of reading those classes from the jar. It does, in one JVM, what a short command does: the
 * help of every command, then a {@code serve} on a temporary store with the object shell and
 * {@code ls} against it. Not a command; prints nothing unless a step fails (exit 1).
 */
final class CdsTraining {

  private CdsTraining() {
  }

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("sediment-cds-training");
    int code;
    try {
      code = train(dir);
    } finally {
      deleteTree(dir);
    }
    // Exits here so that the archive is written now, whatever threads gRPC left behind.
    System.exit(code);
  }

  private static int train(Path dir) throws Exception {
    run("--version");
    run("--help");
    for (Class<?> c : Subcommands.ALL) {
      run(Subcommands.name(c), "--help");
    }
    CommandLine cmd = Sediment.commandLine();
    ServeCommand serve = cmd.getSubcommands().get("serve").getCommand();
    serve.installShutdownHook = false;
    StringWriter serveErr = new StringWriter();
    cmd.setOut(new PrintWriter(new StringWriter()));
    cmd.setErr(new PrintWriter(serveErr));
    Thread serving = new Thread(() -> cmd.execute("serve", "--data", dir.toString(),
        "--port", "0", "--recon-port", "0", "--no-background-services", "--log-level", "WARN",
        "--audit-log", ServeAuditOptions.NONE), "cds-training-serve");
    serving.start();
    if (!serve.started.await(60, TimeUnit.SECONDS)) {
      System.err.println("CdsTraining: serve did not start: " + serveErr);
      return 1;
    }
    try {
      String target = serve.server.target();
      for (List<String> shell : List.of(
          List.of("volume", "create", "training"),
          List.of("bucket", "create", "training/bucket"),
          List.of("key", "create", "training/bucket/dir/key", "--size", "1KB", "-m", "k=v"),
          List.of("key", "info", "training/bucket/dir/key"),
          List.of("key", "list", "training/bucket", "--json"),
          List.of("ls", "training/bucket"),
          List.of("ls", "training/bucket", "--recursive", "--json"),
          List.of("rm", "training/bucket/dir/key"))) {
        String[] a = Stream.concat(shell.stream(), Stream.of("--target", target))
            .toArray(String[]::new);
        int code = run(a);
        if (code != 0) {
          return code;
        }
      }
    } finally {
      serve.requestStop();
      serving.join(TimeUnit.SECONDS.toMillis(60));
    }
    return 0;
  }

  /** Runs {@code args} as {@code sediment} would; its output is dropped, failures printed. */
  private static int run(String... args) {
    CommandLine cmd = Sediment.commandLineFor(args);
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(new StringWriter()));
    cmd.setErr(new PrintWriter(err));
    int code = cmd.execute(args);
    if (code != 0) {
      System.err.println("CdsTraining: sediment " + String.join(" ", args) + " exited " + code
          + ": " + err);
    }
    return code;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
