package io.sediment.om.authz;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import io.sediment.om.auth.CallPrincipal;
import java.util.Objects;

/**
 * Lets only administrators call the service it intercepts (AdminService): any other caller's
 * call is closed with PERMISSION_DENIED before its request is read, so nothing runs. It must be
 * the innermost interceptor, inside the one that binds the caller ({@link CallPrincipal}).
 *
 * <p>Thread-safe.
 */
public final class AdministratorsOnly implements ServerInterceptor {

  private final NativeAccessControl acl;

  public AdministratorsOnly(NativeAccessControl acl) {
    this.acl = Objects.requireNonNull(acl, "acl");
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    try {
      acl.checkAdministrator(CallPrincipal.current(), call.getMethodDescriptor().getFullMethodName());
    } catch (StatusRuntimeException denied) {
      call.close(denied.getStatus(), new Metadata());
      return new ServerCall.Listener<>() { };
    }
    return next.startCall(call, headers);
  }
}
