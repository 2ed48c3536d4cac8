package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.sediment.om.OmMetadataStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A service given to {@code Builder#extraService} is served; a server built without it is not. */
class OmGrpcExtraServiceTest {

  @TempDir Path dir;

  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
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

  private static final MethodDescriptor<byte[], byte[]> REVERSE =
      MethodDescriptor.<byte[], byte[]>newBuilder().setType(MethodDescriptor.MethodType.UNARY)
          .setFullMethodName("test.Extra/Reverse").setRequestMarshaller(BYTES)
          .setResponseMarshaller(BYTES).build();

  private static ServerServiceDefinition reverse() {
    return ServerServiceDefinition.builder("test.Extra")
        .addMethod(REVERSE, ServerCalls.asyncUnaryCall((req, out) -> {
          byte[] r = new byte[req.length];
          for (int i = 0; i < req.length; i++) {
            r[i] = req[req.length - 1 - i];
          }
          out.onNext(r);
          out.onCompleted();
        })).build();
  }

  private static byte[] call(OmGrpcServer server, byte[] request) {
    ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
        InsecureChannelCredentials.create()).build();
    try {
      return ClientCalls.blockingUnaryCall(channel, REVERSE, CallOptions.DEFAULT, request);
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  void anExtraServiceIsServedOnlyWhereItWasAdded() throws Exception {
    try (OmMetadataStore store = OmMetadataStore.open(dir.resolve("om"))) {
      OmGrpcServer with = OmGrpcServer.builder(store).port(0).extraService(reverse()).build()
          .start();
      try {
        assertEquals("cba", new String(call(with, "abc".getBytes())));
      } finally {
        with.shutdown(Duration.ofSeconds(2));
      }
      OmGrpcServer without = OmGrpcServer.builder(store).port(0).build().start();
      try {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
            () -> call(without, "abc".getBytes()));
        assertEquals(Status.Code.UNIMPLEMENTED, e.getStatus().getCode());
      } finally {
        without.shutdown(Duration.ofSeconds(2));
      }
    }
  }
}
