package io.sediment.om.grpc;

import io.grpc.Context;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Test interceptor: when armed for a method, holds the next call of it just before its handler
 * runs ({@code entered}), until {@link #release()}; {@code finished} counts down after the handler
 * returned. Lets a test expire a deadline, cancel, or shut down while a call is in flight.
 */
final class GateInterceptor implements ServerInterceptor {

  private volatile String method;
  volatile CountDownLatch entered = new CountDownLatch(1);
  volatile CountDownLatch finished = new CountDownLatch(1);
  private volatile CountDownLatch release = new CountDownLatch(1);
  volatile Context heldContext;

  /** Holds the next call of {@code bareMethodName}. */
  void arm(String bareMethodName) {
    entered = new CountDownLatch(1);
    finished = new CountDownLatch(1);
    release = new CountDownLatch(1);
    method = bareMethodName;
  }

  void release() {
    release.countDown();
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    boolean gated = call.getMethodDescriptor().getBareMethodName().equals(method);
    if (gated) {
      method = null;
    }
    CountDownLatch myEntered = entered;
    CountDownLatch myFinished = finished;
    CountDownLatch myRelease = release;
    return new SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
      @Override
      public void onHalfClose() {
        if (!gated) {
          super.onHalfClose();
          return;
        }
        heldContext = Context.current();
        myEntered.countDown();
        try {
          myRelease.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        try {
          super.onHalfClose();
        } finally {
          myFinished.countDown();
        }
      }
    };
  }
}
