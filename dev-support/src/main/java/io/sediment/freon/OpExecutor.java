package io.sediment.freon;

/**
 * Runs one operation the way a run measures it (through the service, as an echo, or raw).
 * Implementations are thread-safe: every client thread calls the same one.
 */
@FunctionalInterface
interface OpExecutor {

  /**
   * Runs {@code op}; returns normally on success, throws on failure (a gRPC
   * {@code StatusRuntimeException}'s code is reported as the error's status).
   */
  void run(Op op);
}
