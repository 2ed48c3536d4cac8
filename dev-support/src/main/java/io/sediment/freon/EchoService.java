package io.sediment.freon;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * A benchmark-only unary gRPC method that does no work: it answers a request with a response of
 * the length the request asks for. Floor (a) of freon: the same calls as the service's, of the same
 * sizes, on the same server and channel, with the layers removed. Only freon's in-process server
 * registers it ({@code OmGrpcServer.Builder#extraService}); {@code serve} never does.
 *
 * <p>Messages are raw bytes (no proto): a request is the response length as 4 big-endian bytes,
 * padded with zeros to the size being imitated. Thread-safe.
 */
final class EchoService {

  /** The method's full name. */
  static final String METHOD_NAME = "sediment.freon.v1.Echo/Echo";

  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };

  static final MethodDescriptor<byte[], byte[]> METHOD =
      MethodDescriptor.<byte[], byte[]>newBuilder()
          .setType(MethodDescriptor.MethodType.UNARY)
          .setFullMethodName(METHOD_NAME)
          .setRequestMarshaller(BYTES)
          .setResponseMarshaller(BYTES)
          .build();

  private EchoService() {
  }

  /** The service definition to register on a server. */
  static ServerServiceDefinition definition() {
    return ServerServiceDefinition.builder(MethodDescriptor.extractFullServiceName(METHOD_NAME))
        .addMethod(METHOD, ServerCalls.asyncUnaryCall((request, observer) -> {
          int length = request.length >= 4 ? ByteBuffer.wrap(request).getInt() : 0;
          observer.onNext(new byte[Math.max(0, length)]);
          observer.onCompleted();
        }))
        .build();
  }

  /** A request of {@code requestBytes} (at least 4) asking for {@code responseBytes}. */
  static byte[] request(int requestBytes, int responseBytes) {
    byte[] r = new byte[Math.max(4, requestBytes)];
    ByteBuffer.wrap(r).putInt(responseBytes);
    return r;
  }

  /** One blocking call on {@code channel}; returns the response's length. */
  static int call(Channel channel, byte[] request) {
    return ClientCalls.blockingUnaryCall(channel, METHOD, CallOptions.DEFAULT, request).length;
  }
}
