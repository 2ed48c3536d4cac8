package io.sediment.om.grpc;

import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.sediment.db.StoreClosedException;
import io.sediment.db.StoreOutOfSpaceException;
import io.sediment.db.codec.CodecException;
import io.sediment.om.client.OmClient;
import io.sediment.om.core.OmException;
import io.sediment.om.requests.NotLeaderException;
import java.util.concurrent.TimeoutException;

/**
 * Maps what a facade call throws to the gRPC status the client sees. One place, so every RPC of
 * {@link OmServiceImpl} and {@link AdminServiceImpl} answers the same way:
 *
 * <ul>
 *   <li>{@link OmException}: its code one to one (INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS,
 *       FAILED_PRECONDITION, UNIMPLEMENTED, RESOURCE_EXHAUSTED, UNAVAILABLE, INTERNAL), with its
 *       message (the redundant {@code "CODE: "} prefix dropped);
 *   <li>{@link StoreOutOfSpaceException}: RESOURCE_EXHAUSTED with its message (the store's disk is
 *       full: the directory and the free space needed; writes resume by themselves);
 *   <li>{@link StoreClosedException}: UNAVAILABLE: the store, a table or an iterator is closed
 *       or closing (the server is shutting down); retry against a running instance;
 *   <li>{@link IllegalArgumentException}: INVALID_ARGUMENT (an argument a lower layer refused);
 *   <li>a {@link StatusRuntimeException} or {@link StatusException}: its own status;
 *   <li>anything else (codec or storage failures, bugs, among them any other
 *       {@link IllegalStateException}): INTERNAL, with the exception's class and message; the
 *       caller logs it once with its stack ({@link UnaryCalls}).
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
public final class GrpcStatuses {

  /**
   * The longest description a status carries; a longer one is cut, saying how long it was. A
   * status travels in HTTP/2 trailers, and clients refuse trailers past 8 KiB by default, which
   * would turn the status into INTERNAL; messages can quote paths of up to 64 KiB.
   */
  public static final int MAX_DESCRIPTION_CHARS = 2048;

  private GrpcStatuses() {
  }

  /** The status for {@code t}; never OK; its description at most {@link #MAX_DESCRIPTION_CHARS}. */
  public static Status toStatus(Throwable t) {
    Status s = statusOf(t);
    String d = s.getDescription();
    if (d != null && d.length() > MAX_DESCRIPTION_CHARS) {
      String tail = "… (" + d.length() + " characters)";
      int keep = MAX_DESCRIPTION_CHARS - tail.length();
      if (Character.isHighSurrogate(d.charAt(keep - 1))) {
        keep--;
      }
      s = s.withDescription(d.substring(0, keep) + tail);
    }
    return s;
  }

  private static Status statusOf(Throwable t) {
    if (t instanceof OmException e) {
      return codeOf(e.code()).withDescription(e.detail()).withCause(e);
    }
    if (t instanceof NotLeaderException e) {
      return Status.UNAVAILABLE.withDescription(e.getMessage());
    }
    if (t instanceof StatusRuntimeException e) {
      return e.getStatus();
    }
    if (t instanceof StatusException e) {
      return e.getStatus();
    }
    if (t instanceof CodecException) {
      return Status.INTERNAL.withDescription("Stored data could not be decoded: " + t.getMessage())
          .withCause(t);
    }
    if (t instanceof StoreOutOfSpaceException) {
      return Status.RESOURCE_EXHAUSTED.withDescription(t.getMessage()).withCause(t);
    }
    if (t instanceof StoreClosedException) {
      return Status.UNAVAILABLE.withDescription("The store is closing or closed ("
          + t.getMessage() + "); retry against a running server").withCause(t);
    }
    if (t instanceof IllegalArgumentException) {
      return Status.INVALID_ARGUMENT.withDescription(t.getMessage()).withCause(t);
    }
    return Status.INTERNAL.withDescription(t.getClass().getSimpleName() + ": " + t.getMessage())
        .withCause(t);
  }

  /** The gRPC code of an om-metadata code (one to one). */
  public static Status codeOf(OmException.Code code) {
    return switch (code) {
      case INVALID_ARGUMENT -> Status.INVALID_ARGUMENT;
      case NOT_FOUND -> Status.NOT_FOUND;
      case ALREADY_EXISTS -> Status.ALREADY_EXISTS;
      case FAILED_PRECONDITION -> Status.FAILED_PRECONDITION;
      case UNIMPLEMENTED -> Status.UNIMPLEMENTED;
      case RESOURCE_EXHAUSTED -> Status.RESOURCE_EXHAUSTED;
      case UNAVAILABLE -> Status.UNAVAILABLE;
      case INTERNAL -> Status.INTERNAL;
    };
  }

  /**
   * The status of a call whose context was cancelled: DEADLINE_EXCEEDED when its deadline passed,
   * else CANCELLED.
   */
  static Status cancelled(Context context) {
    Throwable cause = context.cancellationCause();
    if (cause instanceof TimeoutException
        || (context.getDeadline() != null && context.getDeadline().isExpired())) {
      return Status.DEADLINE_EXCEEDED.withDescription("Deadline exceeded before the server "
          + "finished; nothing was applied unless the call was a write already committed");
    }
    return Status.CANCELLED.withDescription("Cancelled by the client").withCause(cause);
  }

  /**
   * The trailers that go with {@code t}'s status: for a replica that is not the leader, the
   * leader's address ({@link OmClient#LEADER_HEADER}) when known; else none (null).
   */
  static Metadata trailersOf(Throwable t) {
    if (t instanceof NotLeaderException e && e.leaderAddress() != null) {
      Metadata m = new Metadata();
      m.put(LEADER, e.leaderAddress());
      return m;
    }
    return null;
  }

  private static final Metadata.Key<String> LEADER =
      Metadata.Key.of(OmClient.LEADER_HEADER, Metadata.ASCII_STRING_MARSHALLER);
}
