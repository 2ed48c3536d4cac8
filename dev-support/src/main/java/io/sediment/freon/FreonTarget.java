package io.sediment.freon;

import io.grpc.Channel;
import io.grpc.ManagedChannel;
import java.io.PrintStream;

/**
 * The server a run measures: an in-process one on a temporary store (with the floors) or a
 * remote one (without). Closing it frees everything it started. Not thread-safe; its channel is.
 */
interface FreonTarget extends AutoCloseable {

  /** The channel every client shares (as the cli's one channel per process). */
  ManagedChannel channel();

  /**
   * Creates the volume and buckets unless they exist and writes the prefilled keys
   * ({@code [0, keys)}) and FSO files ({@code [0, files)}).
   */
  void prepare(Names names, long keys, long files, PrintStream progress)
      throws InterruptedException;

  /**
   * Floor (a) over {@code channel} (this target's, maybe intercepted), or {@code null} when its
   * server has no echo.
   */
  EchoCalls echo(CallSizes sizes, Channel channel);

  /** Floor (b) on the target's store, or {@code null} when it is not in this process. */
  RawCalls raw();

  /**
   * The server's own figures of the time its calls took, as they stand now
   * ({@link CallTimes#NONE} when its metrics are not in this process).
   */
  CallTimes serverCallTimes();

  /** A description for the report. */
  String describe();

  @Override
  void close();
}
