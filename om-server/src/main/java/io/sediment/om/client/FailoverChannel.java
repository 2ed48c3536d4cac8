package io.sediment.om.client;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/**
 * An {@link OmClient} as a gRPC {@link Channel}, so that generated stubs get its failover: each
 * unary call runs through {@link OmClient#call} (leader hints, backoff across replicas, the same
 * client and call ids on every retry) when the stub half-closes it, on the stub's thread, and
 * its outcome is delivered to the call's listener before {@code halfClose} returns. The stub's
 * deadline is ignored; the client's call timeout applies. Only unary methods: others fail with
 * UNIMPLEMENTED. Thread-safe.
 */
final class FailoverChannel extends Channel {

  private final OmClient client;
  private final String authority;

  FailoverChannel(OmClient client, String authority) {
    this.client = client;
    this.authority = authority;
  }

  @Override
  public <Q, A> ClientCall<Q, A> newCall(MethodDescriptor<Q, A> method, CallOptions options) {
    return new UnaryCall<>(method);
  }

  @Override
  public String authority() {
    return authority;
  }

  private final class UnaryCall<Q, A> extends ClientCall<Q, A> {
    private final MethodDescriptor<Q, A> method;
    private Listener<A> listener;
    private Q request;
    private boolean cancelled;

    UnaryCall(MethodDescriptor<Q, A> method) {
      this.method = method;
    }

    @Override
    public void start(Listener<A> responseListener, Metadata headers) {
      this.listener = responseListener;
    }

    @Override
    public void request(int numMessages) {
    }

    @Override
    public void cancel(String message, Throwable cause) {
      cancelled = true;
    }

    @Override
    public void sendMessage(Q message) {
      request = message;
    }

    @Override
    public void halfClose() {
      if (cancelled) {
        listener.onClose(Status.CANCELLED, new Metadata());
        return;
      }
      if (method.getType() != MethodDescriptor.MethodType.UNARY || request == null) {
        listener.onClose(Status.UNIMPLEMENTED.withDescription(
            "Only unary calls with one request go through the failover channel"), new Metadata());
        return;
      }
      A answer;
      try {
        answer = client.call(method, request);
      } catch (StatusRuntimeException e) {
        listener.onClose(e.getStatus(),
            e.getTrailers() == null ? new Metadata() : e.getTrailers());
        return;
      }
      listener.onHeaders(new Metadata());
      listener.onMessage(answer);
      listener.onClose(Status.OK, new Metadata());
    }
  }
}
