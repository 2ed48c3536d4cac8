package io.sediment.om.ha;

import java.util.OptionalInt;
import java.util.concurrent.ForkJoinPool;
import org.slf4j.LoggerFactory;

/**
 * The parallelism of the JVM's common {@link ForkJoinPool}, which a replica needs at 2 or more.
 *
 * <p>Ratis completes futures of its log worker with asynchronous stages that name no executor,
 * so they run on {@code CompletableFuture}'s default executor. That is the common pool only when
 * its parallelism is above 1; otherwise every such stage starts a thread of its own. The JVM sets
 * the parallelism to the cores minus one, so on a 2-core machine a replica started some 300
 * threads a second under load and spent about half of its CPU time on them (docs/BENCHMARKS.md,
 * "replication", run 7). The pool reads its parallelism once, when it is first used, from the
 * system property {@value #PROPERTY}: {@link #ensure()} must run before anything in the JVM uses
 * a {@code CompletableFuture} or the pool, which is why the {@code sediment} command calls it
 * first thing in {@code main}; an application that embeds a replica sets the property itself
 * ({@code -D}{@value #PROPERTY}{@code =2}), and {@link OmReplica} logs a warning when it finds
 * the pool below {@value #MINIMUM} ({@link #warnIfBelowMinimum()}).
 *
 * <p>Thread-safe.
 */
public final class CommonPoolParallelism {

  /** The system property the common pool reads its parallelism from. */
  public static final String PROPERTY = "java.util.concurrent.ForkJoinPool.common.parallelism";
  /** The least parallelism at which asynchronous stages run on the pool, not on a new thread. */
  public static final int MINIMUM = 2;

  private CommonPoolParallelism() {
  }

  /**
   * Sets {@value #PROPERTY} to {@value #MINIMUM} when it is unset and the JVM's default would be
   * lower; a value the user set is kept. Takes effect only before the pool is first used.
   *
   * @return the value set, or empty if this changed nothing
   */
  public static OptionalInt ensure() {
    OptionalInt chosen = chosen(System.getProperty(PROPERTY),
        Runtime.getRuntime().availableProcessors());
    chosen.ifPresent(p -> System.setProperty(PROPERTY, Integer.toString(p)));
    return chosen;
  }

  /**
   * What {@link #ensure()} sets, given the property's current value ({@code null}: unset) and the
   * JVM's processor count: {@value #MINIMUM} when unset and {@code processors - 1} (the pool's
   * default) is below it, else nothing.
   */
  static OptionalInt chosen(String current, int processors) {
    if (current != null || processors - 1 >= MINIMUM) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(MINIMUM);
  }

  /**
   * Logs a warning naming {@value #PROPERTY} when the running common pool's parallelism is below
   * {@value #MINIMUM}.
   */
  public static void warnIfBelowMinimum() {
    int running = ForkJoinPool.getCommonPoolParallelism();
    if (running < MINIMUM) {
      LoggerFactory.getLogger(CommonPoolParallelism.class).warn("The JVM's common ForkJoinPool "
          + "has parallelism {}, below {}: Ratis then starts a thread for every asynchronous "
          + "completion of its log, which costs a replica about half of its CPU time under load. "
          + "Start the JVM with -D{}={} (the sediment command does so itself)", running, MINIMUM,
          PROPERTY, MINIMUM);
    }
  }
}
