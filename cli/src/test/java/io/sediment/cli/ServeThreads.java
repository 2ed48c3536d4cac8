package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.testing.LoopbackPorts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * {@code sediment serve} runs in threads of the test's JVM, as an operator would start them;
 * {@link #stopAll} stops every one the documented way and waits for it.
 */
final class ServeThreads {

  private final List<ServeCommand> serves = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();

  static int freePort() {
    return LoopbackPorts.free();
  }

  /** Runs {@code serve args...} in a thread and waits until it listens; returns its command. */
  ServeCommand serve(String... args) throws InterruptedException {
    CommandLine cmd = Sediment.commandLine();
    ServeCommand serve = cmd.getSubcommands().get("serve").getCommand();
    serve.installShutdownHook = false;
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(new StringWriter()));
    cmd.setErr(new PrintWriter(err));
    Thread t = new Thread(() -> cmd.execute(args));
    t.start();
    serves.add(serve);
    threads.add(t);
    assertTrue(serve.started.await(60, TimeUnit.SECONDS), err.toString());
    return serve;
  }

  /** Asks every serve to stop and waits up to 30 s for each. */
  void stopAll() throws InterruptedException {
    serves.forEach(ServeCommand::requestStop);
    for (Thread t : threads) {
      t.join(30_000);
    }
  }
}
