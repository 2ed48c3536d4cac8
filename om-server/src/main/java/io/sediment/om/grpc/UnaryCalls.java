package io.sediment.om.grpc;

import io.grpc.Context;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the body of one unary RPC: refuses to start when the call is already cancelled or past its
 * deadline (so an expired write is never applied), maps a thrown exception to its status
 * ({@link GrpcStatuses}), and does not answer a call that was cancelled while the body ran (the
 * client is gone; a page read for it is dropped).
 *
 * <p>Stateless and thread-safe.
 */
final class UnaryCalls {

  private static final Logger LOG = LoggerFactory.getLogger(UnaryCalls.class);

  private UnaryCalls() {
  }

  /**
   * Adds {@code method} to {@code service}, answered by {@code body} through {@link #run}: the
   * body maps one request to its response or throws.
   */
  static <Q, R> void bind(ServerServiceDefinition.Builder service, MethodDescriptor<Q, R> method,
      Function<Q, R> body) {
    service.addMethod(method,
        ServerCalls.asyncUnaryCall((req, obs) -> run(obs, () -> body.apply(req))));
  }

  static <T> void run(StreamObserver<T> observer, Supplier<T> body) {
    ServerCallStreamObserver<T> call = observer instanceof ServerCallStreamObserver<T> s ? s : null;
    if (call != null) {
      // Without a handler, answering a cancelled call throws; with one, isCancelled() decides.
      call.setOnCancelHandler(() -> { });
    }
    Context context = Context.current();
    if (context.isCancelled()) {
      observer.onError(GrpcStatuses.cancelled(context).asRuntimeException());
      return;
    }
    T response;
    try {
      response = body.get();
    } catch (RuntimeException e) {
      Status status = GrpcStatuses.toStatus(e);
      if (status.getCode() == Status.Code.INTERNAL) {
        LOG.warn("RPC failed with INTERNAL: {}", status.getDescription(), e);
      }
      if (call == null || !call.isCancelled()) {
        observer.onError(status.asRuntimeException(GrpcStatuses.trailersOf(e)));
      }
      return;
    }
    if (call != null && call.isCancelled()) {
      return;
    }
    if (context.isCancelled()) {
      observer.onError(GrpcStatuses.cancelled(context).asRuntimeException());
      return;
    }
    observer.onNext(response);
    observer.onCompleted();
  }
}
