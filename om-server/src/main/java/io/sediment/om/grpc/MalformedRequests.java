package io.sediment.om.grpc;

import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.InputStream;

/**
 * Answers a request that is not a valid protobuf message of its method (most often a
 * {@code string} field that is not valid UTF-8, which proto3 refuses) with INVALID_ARGUMENT
 * instead of grpc-java's UNKNOWN "Application error processing RPC".
 *
 * <p>grpc-java parses a request before any interceptor sees it and turns a parse failure into
 * UNKNOWN. {@link #strict} therefore serves a service with pass-through stream marshallers, so the
 * service's own parse runs inside this interceptor's listener, where its failure can be caught:
 * the call is closed with INVALID_ARGUMENT and the body never runs. The response path is
 * unchanged (the response stream is handed to the transport as is). Thread-safe.
 */
final class MalformedRequests implements ServerInterceptor {

  private static final MethodDescriptor.Marshaller<InputStream> PASS_THROUGH =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(InputStream value) {
          return value;
        }

        @Override
        public InputStream parse(InputStream stream) {
          return stream;
        }
      };

  private static final MalformedRequests INSTANCE = new MalformedRequests();

  private MalformedRequests() {
  }

  /** {@code service} with malformed requests answered INVALID_ARGUMENT. */
  static ServerServiceDefinition strict(ServerServiceDefinition service) {
    return ServerInterceptors.intercept(
        ServerInterceptors.useMarshalledMessages(service, PASS_THROUGH, PASS_THROUGH), INSTANCE);
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(ServerCall<ReqT, RespT> call,
      Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
        next.startCall(call, headers)) {
      private boolean rejected;

      @Override
      public void onMessage(ReqT message) {
        if (rejected) {
          return;
        }
        try {
          super.onMessage(message);
        } catch (StatusRuntimeException e) {
          if (!(e.getCause() instanceof InvalidProtocolBufferException bad)) {
            throw e;
          }
          rejected = true;
          call.close(Status.INVALID_ARGUMENT.withDescription("The request is not a valid "
              + call.getMethodDescriptor().getFullMethodName() + " message: "
              + bad.getMessage()), new Metadata());
        }
      }

      @Override
      public void onHalfClose() {
        if (!rejected) {
          super.onHalfClose();
        }
      }

      @Override
      public void onReady() {
        if (!rejected) {
          super.onReady();
        }
      }
    };
  }
}
