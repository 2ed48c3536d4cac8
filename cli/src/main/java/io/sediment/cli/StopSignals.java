package io.sediment.cli;

import sun.misc.Signal;

/**
 * Turns Ctrl-C (SIGINT) and SIGTERM into a graceful stop that the command finishes itself, so
 * that a server stopped the documented way exits 0 like every command that succeeds. Left to the
 * JVM, either signal starts the shutdown hooks and the process exits 130 or 143 however cleanly
 * they stopped it. The JDK's supported API has no signal handling; {@code sun.misc.Signal} (module
 * jdk.unsupported) is the one that is kept for exactly this. Where it is refused, the shutdown hook
 * still stops the server, only with the signal's exit code.
 */
final class StopSignals {

  private StopSignals() {
  }

  /** Runs {@code stop} on SIGINT and SIGTERM instead of shutting the JVM down. */
  static void install(Runnable stop) {
    for (String name : new String[] {"INT", "TERM"}) {
      try {
        Signal.handle(new Signal(name), signal -> stop.run());
      } catch (IllegalArgumentException refused) {
        // the JVM uses the signal itself (e.g. -Xrs): keep its default handling
      }
    }
  }
}
