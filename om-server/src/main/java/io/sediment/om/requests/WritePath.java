package io.sediment.om.requests;

import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.sediment.proto.om.OmLogEntry;
import java.util.concurrent.CompletableFuture;

/**
 * Where a mutating request runs: on this store directly (the single-node server), or through a
 * replicated log whose entries every replica applies ({@code io.sediment.om.ha}). Either way the
 * caller gets the request's response once the write is applied here and durable as the path
 * promises, or the {@link io.sediment.om.core.OmException} that rejected it (nothing changed), or
 * a {@link NotLeaderException} (nothing submitted).
 *
 * <p>Implementations are thread-safe.
 */
public interface WritePath {

  /**
   * Runs the request {@code entry} carries and returns its response, parsed with {@code parser}
   * where it crossed a wire.
   */
  <R extends Message> R write(OmLogEntry.Builder entry, Parser<R> parser);

  /**
   * Returns when a write submitted now would be accepted by this replica as far as it can tell
   * (a single store: always), so a caller can check the request against this replica's state
   * first, knowing that state is the leader's.
   *
   * @throws NotLeaderException if this replica would refuse the write (nothing submitted)
   */
  default void beforeSubmit() {
  }

  /**
   * {@link #write}, completing later: the future holds the response or the exception
   * {@link #write} would throw. The default runs {@link #write} on the calling thread; a path that
   * waits for others (a replicated log) returns at once, so the caller's thread is free meanwhile.
   */
  default <R extends Message> CompletableFuture<R> writeAsync(OmLogEntry.Builder entry,
      Parser<R> parser) {
    try {
      return CompletableFuture.completedFuture(write(entry, parser));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
