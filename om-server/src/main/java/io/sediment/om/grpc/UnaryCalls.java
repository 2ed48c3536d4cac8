package io.sediment.om.grpc;

import io.grpc.Context;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
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

  /**
   * Adds {@code method} to {@code service}, answered by {@code body}'s future through
   * {@link #runAsync}: the handler thread is free once the body returned its future.
   */
  static <Q, R> void bindAsync(ServerServiceDefinition.Builder service,
      MethodDescriptor<Q, R> method, Function<Q, CompletableFuture<R>> body, Executor completions) {
    service.addMethod(method, ServerCalls.asyncUnaryCall(
        (req, obs) -> runAsync(obs, () -> body.apply(req), completions)));
  }

  static <T> void run(StreamObserver<T> observer, Supplier<T> body) {
    ServerCallStreamObserver<T> call = prepare(observer);
    Context context = Context.current();
    if (refuseCancelled(observer, context)) {
      return;
    }
    T response;
    try {
      response = body.get();
    } catch (RuntimeException e) {
      answer(observer, call, context, null, e);
      return;
    }
    answer(observer, call, context, response, null);
  }

  /**
   * {@link #run} for a body that completes later: the call is answered on {@code completions}
   * when the body's future completes (or at once if it threw).
   */
  static <T> void runAsync(StreamObserver<T> observer, Supplier<CompletableFuture<T>> body,
      Executor completions) {
    ServerCallStreamObserver<T> call = prepare(observer);
    Context context = Context.current();
    if (refuseCancelled(observer, context)) {
      return;
    }
    CompletableFuture<T> future;
    try {
      future = body.get();
    } catch (RuntimeException e) {
      answer(observer, call, context, null, e);
      return;
    }
    future.whenCompleteAsync((response, failure) -> answer(observer, call, context, response,
        failure instanceof CompletionException c && c.getCause() != null ? c.getCause() : failure),
        completions);
  }

  private static <T> ServerCallStreamObserver<T> prepare(StreamObserver<T> observer) {
    ServerCallStreamObserver<T> call = observer instanceof ServerCallStreamObserver<T> s ? s : null;
    if (call != null) {
      // Without a handler, answering a cancelled call throws; with one, isCancelled() decides.
      call.setOnCancelHandler(() -> { });
    }
    return call;
  }

  private static boolean refuseCancelled(StreamObserver<?> observer, Context context) {
    if (context.isCancelled()) {
      observer.onError(GrpcStatuses.cancelled(context).asRuntimeException());
      return true;
    }
    return false;
  }

  /** Answers with {@code response}, or with {@code failure}'s status if it is not null. */
  private static <T> void answer(StreamObserver<T> observer, ServerCallStreamObserver<T> call,
      Context context, T response, Throwable failure) {
    if (failure != null) {
      Status status = GrpcStatuses.toStatus(failure);
      if (status.getCode() == Status.Code.INTERNAL) {
        LOG.warn("RPC failed with INTERNAL: {}", status.getDescription(), failure);
      }
      if (call == null || !call.isCancelled()) {
        observer.onError(status.asRuntimeException(GrpcStatuses.trailersOf(failure)));
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
