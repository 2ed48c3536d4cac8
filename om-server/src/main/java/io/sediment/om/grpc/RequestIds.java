package io.sediment.om.grpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.sediment.om.client.OmClient;
import java.util.UUID;

/**
 * A client's request ids, sent as gRPC headers so that a retried write is recognized:
 * {@value #CLIENT_ID_HEADER} (a UUID naming the client process) and {@value #CALL_ID_HEADER}
 * (a number the client never reuses with that id, kept when it resends the same call). The
 * interceptor puts them in the call's context; malformed or absent headers mean "no ids".
 *
 * <p>Thread-safe.
 */
public final class RequestIds implements ServerInterceptor {

  public static final String CLIENT_ID_HEADER = OmClient.CLIENT_ID_HEADER;
  public static final String CALL_ID_HEADER = OmClient.CALL_ID_HEADER;

  private static final Metadata.Key<String> CLIENT_ID =
      Metadata.Key.of(CLIENT_ID_HEADER, Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> CALL_ID =
      Metadata.Key.of(CALL_ID_HEADER, Metadata.ASCII_STRING_MARSHALLER);

  /** A request's ids. */
  public record Ids(UUID clientId, long callId) {}

  private static final Context.Key<Ids> KEY = Context.key("sediment-request-ids");

  /** The context key the ids travel under (for callers that serve requests without gRPC). */
  public static Context.Key<Ids> contextKey() {
    return KEY;
  }

  /** The ids of the call being served, or null if it carried none. */
  public static Ids current() {
    return KEY.get();
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    Ids ids = parse(headers.get(CLIENT_ID), headers.get(CALL_ID));
    if (ids == null) {
      return next.startCall(call, headers);
    }
    return Contexts.interceptCall(Context.current().withValue(KEY, ids), call, headers, next);
  }

  /**
   * The ids {@code headers} carry, or null if they carry none (for an interceptor outside this
   * one, such as the audit log).
   */
  public static Ids of(Metadata headers) {
    return parse(headers.get(CLIENT_ID), headers.get(CALL_ID));
  }

  static Ids parse(String clientId, String callId) {
    if (clientId == null || callId == null) {
      return null;
    }
    try {
      return new Ids(UUID.fromString(clientId), Long.parseLong(callId));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
