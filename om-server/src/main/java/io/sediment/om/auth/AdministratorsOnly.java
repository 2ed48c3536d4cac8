package io.sediment.om.auth;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Objects;

/**
 * Lets only administrators through: a call whose {@link CallPrincipal} is not one is closed
 * PERMISSION_DENIED before a message of it is read. Runs inside the
 * {@link AuthenticatingInterceptor}.
 *
 * <p>Thread-safe.
 */
public final class AdministratorsOnly implements ServerInterceptor {

  private final Administrators administrators;

  public AdministratorsOnly(Administrators administrators) {
    this.administrators = Objects.requireNonNull(administrators, "administrators");
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    Principal p = CallPrincipal.current();
    if (!administrators.contains(p)) {
      call.close(Status.PERMISSION_DENIED.withDescription("'" + p.name() + "' is not an "
          + "administrator: " + call.getMethodDescriptor().getFullMethodName()
          + " is for administrators only"), new Metadata());
      return new ServerCall.Listener<>() { };
    }
    return next.startCall(call, headers);
  }
}
