package io.sediment.om.auth;

import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import java.util.Objects;

/**
 * Authenticates every call ({@link Authenticator}) before its handler sees it: an authenticated
 * call runs with its {@link Principal} bound ({@link CallPrincipal}); any other is closed
 * UNAUTHENTICATED before a message of it is read, so it changes nothing.
 *
 * <p>Thread-safe.
 */
public final class AuthenticatingInterceptor implements ServerInterceptor {

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of(Authenticator.AUTHORIZATION_HEADER, Metadata.ASCII_STRING_MARSHALLER);

  private final Authenticator authenticator;

  public AuthenticatingInterceptor(Authenticator authenticator) {
    this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    Principal p;
    try {
      p = authenticator.authenticate(headers.get(AUTHORIZATION),
          call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION));
    } catch (StatusRuntimeException e) {
      call.close(e.getStatus(), new Metadata());
      return new ServerCall.Listener<>() { };
    }
    return Contexts.interceptCall(CallPrincipal.bind(p), call, headers, next);
  }
}
