package io.sediment.om.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.grpc.CallOptions;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.auth.CallPrincipal;
import io.sediment.om.auth.Principal;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.om.grpc.RequestIds;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.DeleteKeysRequest;
import io.sediment.proto.om.GetVolumeRequest;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OmServiceGrpc.OmServiceBlockingStub;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real server writing its audit log to a file: what each call's line holds, which calls are
 * written, that credentials never are, and that the file rolls over.
 */
class AuditLogTest {

  private static final AtomicInteger LOGGERS = new AtomicInteger();
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  @TempDir
  Path dir;

  private OmMetadataStore store;
  private OmGrpcServer server;
  private AuditLogFile file;
  private ManagedChannel channel;

  /**
   * Stands in for authentication and a denial inside the audit interceptor: "Bearer
   * secret-alice" binds alice, "Bearer secret-bob" binds bob and is then refused
   * PERMISSION_DENIED, any other bearer is UNAUTHENTICATED (its description quoting the header,
   * as a careless authenticator might), no header passes as nobody.
   */
  private static final ServerInterceptor FAKE_AUTH = new ServerInterceptor() {
    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
        ServerCallHandler<Q, A> next) {
      String auth = headers.get(AUTHORIZATION);
      if (auth == null) {
        return next.startCall(call, headers);
      }
      switch (auth) {
        case "Bearer secret-alice":
          return Contexts.interceptCall(CallPrincipal.bind(Principal.user("alice")), call,
              headers, next);
        case "Bearer secret-bob":
          CallPrincipal.bind(Principal.user("bob"));
          call.close(Status.PERMISSION_DENIED.withDescription("bob lacks WRITE on /vol1"),
              new Metadata());
          return new ServerCall.Listener<>() {};
        default:
          call.close(Status.UNAUTHENTICATED.withDescription("Unknown token in '" + auth + "'"),
              new Metadata());
          return new ServerCall.Listener<>() {};
      }
    }
  };

  private void start(AuditReads reads, AuditLogFile.Rotation rotation) throws IOException {
    file = AuditLogFile.open("sediment.audit.test" + LOGGERS.incrementAndGet(),
        dir.resolve("audit").resolve("audit.log"), rotation);
    store = OmMetadataStore.open(dir.resolve("om"), OmStoreOptions.defaults());
    server = OmGrpcServer.builder(store).port(0).drainTimeout(Duration.ofSeconds(5))
        .interceptor(FAKE_AUTH).audit(new AuditInterceptor(file.logger(), reads)).build().start();
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
        InsecureChannelCredentials.create()).build();
  }

  private void start(AuditReads reads) throws IOException {
    start(reads, AuditLogFile.Rotation.DEFAULT);
  }

  @AfterEach
  void stop() {
    if (channel != null) {
      channel.shutdownNow();
    }
    if (server != null) {
      server.shutdown(Duration.ofSeconds(5));
    }
    if (file != null) {
      file.close();
    }
    if (store != null) {
      store.close();
    }
  }

  private OmServiceBlockingStub om(String bearer) {
    Metadata h = new Metadata();
    if (bearer != null) {
      h.put(AUTHORIZATION, "Bearer " + bearer);
    }
    return OmServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h));
  }

  /** The lines written, each as its fields, once the file is closed (the queue written out). */
  private List<Map<String, String>> lines() throws IOException {
    server.shutdown(Duration.ofSeconds(5));
    file.close();
    List<Map<String, String>> out = new ArrayList<>();
    for (String line : Files.readAllLines(file.file(), StandardCharsets.UTF_8)) {
      out.add(parse(line));
    }
    return out;
  }

  /** The fields of one line, in their order. */
  static Map<String, String> parse(String line) throws IOException {
    Map<String, String> fields = new LinkedHashMap<>();
    try (JsonParser p = new JsonFactory().createParser(line)) {
      assertEquals(JsonToken.START_OBJECT, p.nextToken(), line);
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        assertTrue(value.isScalarValue(), line);
        fields.put(name, p.getText());
      }
      assertEquals(null, p.nextToken(), "one object per line: " + line);
    }
    return fields;
  }

  private void createVolumeAndBucket() {
    om("secret-alice").createVolume(CreateVolumeRequest.newBuilder().setVolume("vol1").build());
    om("secret-alice").createBucket(CreateBucketRequest.newBuilder().setVolume("vol1")
        .setBucket("bkt1").setLayout(BucketLayout.OBJECT_STORE).build());
  }

  @Test
  void aWriteAndAReadEachWriteOneLineWithEveryField() throws IOException {
    start(AuditReads.all());
    Instant before = Instant.now();
    UUID client = UUID.randomUUID();
    Metadata ids = new Metadata();
    ids.put(Metadata.Key.of(RequestIds.CLIENT_ID_HEADER, Metadata.ASCII_STRING_MARSHALLER),
        client.toString());
    ids.put(Metadata.Key.of(RequestIds.CALL_ID_HEADER, Metadata.ASCII_STRING_MARSHALLER), "7");
    om("secret-alice").withInterceptors(MetadataUtils.newAttachHeadersInterceptor(ids))
        .createVolume(CreateVolumeRequest.newBuilder().setVolume("vol1").setOwner("alice").build());
    om("secret-alice").getVolume(GetVolumeRequest.newBuilder().setVolume("vol1").build());

    List<Map<String, String>> lines = lines();
    assertEquals(2, lines.size(), lines.toString());
    Map<String, String> write = lines.get(0);
    Instant time = Instant.parse(write.get("time"));
    assertFalse(time.isBefore(before.minusSeconds(1)), write.toString());
    assertEquals("alice", write.get("principal"));
    assertTrue(write.get("remote").startsWith("127.0.0.1:"), write.toString());
    assertEquals("sediment.om.v1.OmService/CreateVolume", write.get("rpc"));
    assertEquals("write", write.get("kind"));
    assertEquals("/vol1", write.get("resource"));
    assertEquals("OK", write.get("status"));
    assertFalse(write.containsKey("error"));
    assertTrue(Long.parseLong(write.get("latency_us")) >= 0, write.toString());
    assertEquals(client + ":7", write.get("request_id"));

    Map<String, String> read = lines.get(1);
    assertEquals("sediment.om.v1.OmService/GetVolume", read.get("rpc"));
    assertEquals("read", read.get("kind"));
    assertEquals("alice", read.get("principal"));
    assertEquals("/vol1", read.get("resource"));
    assertEquals("OK", read.get("status"));
    assertFalse(read.containsKey("request_id"), "the client sent no ids: " + read);
  }

  @Test
  void failuresAndDenialsAreWrittenWithTheirStatusEvenWithReadsOff() throws IOException {
    start(AuditReads.none());
    createVolumeAndBucket();
    StatusRuntimeException missing = assertThrows(StatusRuntimeException.class,
        () -> om(null).lookupKey(LookupKeyRequest.newBuilder().setVolume("vol1").setBucket("bkt1")
            .setKey("dir/missing").build()));
    assertEquals(Status.Code.NOT_FOUND, missing.getStatus().getCode());
    StatusRuntimeException unauthenticated = assertThrows(StatusRuntimeException.class,
        () -> om("secret-mallory").getVolume(GetVolumeRequest.newBuilder().setVolume("vol1")
            .build()));
    assertEquals(Status.Code.UNAUTHENTICATED, unauthenticated.getStatus().getCode());
    StatusRuntimeException denied = assertThrows(StatusRuntimeException.class,
        () -> om("secret-bob").createVolume(CreateVolumeRequest.newBuilder().setVolume("vol2")
            .build()));
    assertEquals(Status.Code.PERMISSION_DENIED, denied.getStatus().getCode());
    om("secret-alice").getVolume(GetVolumeRequest.newBuilder().setVolume("vol1").build());

    List<Map<String, String>> lines = lines();
    assertEquals(5, lines.size(), "two writes, three failures, no successful read: " + lines);
    Map<String, String> notFound = lines.get(2);
    assertEquals("sediment.om.v1.OmService/LookupKey", notFound.get("rpc"));
    assertEquals("NOT_FOUND", notFound.get("status"));
    assertEquals("/vol1/bkt1/dir/missing", notFound.get("resource"));
    assertEquals("-", notFound.get("principal"), "nothing was bound: " + notFound);
    assertNotNull(notFound.get("error"));

    Map<String, String> refused = lines.get(3);
    assertEquals("UNAUTHENTICATED", refused.get("status"));
    assertEquals("-", refused.get("principal"));
    assertEquals("sediment.om.v1.OmService/GetVolume", refused.get("rpc"));
    assertEquals("Unknown token in 'Bearer ***", refused.get("error"));

    Map<String, String> deniedLine = lines.get(4);
    assertEquals("PERMISSION_DENIED", deniedLine.get("status"));
    assertEquals("bob", deniedLine.get("principal"));
    assertEquals("bob lacks WRITE on /vol1", deniedLine.get("error"));
  }

  /** A batch delete is one write line naming its bucket, whatever its keys' outcomes. */
  @Test
  void aBatchDeleteIsOneWriteLineOnItsBucket() throws IOException {
    start(AuditReads.none());
    createVolumeAndBucket();
    om("secret-alice").deleteKeys(DeleteKeysRequest.newBuilder().setVolume("vol1")
        .setBucket("bkt1").addKeys("a").addKeys("b").build());
    List<Map<String, String>> lines = lines();
    assertEquals(3, lines.size(), lines.toString());
    Map<String, String> batch = lines.get(2);
    assertEquals("sediment.om.v1.OmService/DeleteKeys", batch.get("rpc"));
    assertEquals("write", batch.get("kind"));
    assertEquals("/vol1/bkt1", batch.get("resource"));
    assertEquals("OK", batch.get("status"));
    assertEquals("alice", batch.get("principal"));
  }

  @Test
  void aRequestThatIsNotAValidMessageIsRecordedToo() throws IOException {
    start(AuditReads.none());
    MethodDescriptor<byte[], byte[]> lookup = OmServiceGrpc.getLookupKeyMethod()
        .toBuilder(BYTES, BYTES).build();
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> ClientCalls.blockingUnaryCall(channel, lookup,
            CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS),
            new byte[] {(1 << 3) | 2, 1, (byte) 0xFF}));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    List<Map<String, String>> lines = lines();
    assertEquals(1, lines.size(), lines.toString());
    assertEquals("sediment.om.v1.OmService/LookupKey", lines.get(0).get("rpc"));
    assertEquals("UNKNOWN", lines.get(0).get("status"), "ended outside the audited service");
    assertEquals("-", lines.get(0).get("resource"), "no request reached the audit");
  }

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

  @Test
  void noCredentialEverReachesTheFile() throws IOException {
    start(AuditReads.all());
    createVolumeAndBucket();
    om("secret-alice").getVolume(GetVolumeRequest.newBuilder().setVolume("vol1").build());
    assertThrows(StatusRuntimeException.class, () -> om("secret-mallory")
        .getVolume(GetVolumeRequest.newBuilder().setVolume("vol1").build()));
    assertThrows(StatusRuntimeException.class, () -> om("secret-bob")
        .getVolume(GetVolumeRequest.newBuilder().setVolume("vol1").build()));
    List<Map<String, String>> lines = lines();
    assertEquals(5, lines.size(), lines.toString());
    String text = Files.readString(file.file());
    assertFalse(text.contains("secret"), text);
  }

  @Test
  void aNewFileAndItsDirectoryAreTheOwnersOnly() throws IOException {
    start(AuditReads.all());
    assertEquals("rw-------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(file.file())));
    assertEquals("rwx------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(file.file().getParent())));
  }

  @Test
  void readsAreSampledAsConfigured() throws IOException {
    start(AuditReads.sample(2));
    createVolumeAndBucket();
    for (int i = 0; i < 5; i++) {
      om("secret-alice").getVolume(GetVolumeRequest.newBuilder().setVolume("vol1").build());
    }
    List<Map<String, String>> lines = lines();
    assertEquals(List.of("CreateVolume", "CreateBucket", "GetVolume", "GetVolume", "GetVolume"),
        lines.stream().map(l -> l.get("rpc").substring(l.get("rpc").indexOf('/') + 1)).toList(),
        "the writes, then the 1st, 3rd and 5th of five reads");
  }

  @Test
  void theFileRollsOverAndNoLineIsLost() throws IOException {
    start(AuditReads.all(), new AuditLogFile.Rotation(2048, 30, 1 << 20));
    createVolumeAndBucket();
    int lookups = 60;
    for (int i = 0; i < lookups; i++) {
      int n = i;
      assertThrows(StatusRuntimeException.class, () -> om("secret-alice").lookupKey(
          LookupKeyRequest.newBuilder().setVolume("vol1").setBucket("bkt1")
              .setKey("some/rather/long/key/name/" + n).build()));
    }
    lines();
    List<Path> rolled;
    try (Stream<Path> files = Files.list(file.file().getParent())) {
      rolled = files.filter(p -> p.getFileName().toString().endsWith(".log.gz")).toList();
    }
    assertTrue(rolled.size() >= 2, "rolled files: " + rolled);
    int total = Files.readAllLines(file.file()).size();
    for (Path p : rolled) {
      try (InputStream in = new GZIPInputStream(Files.newInputStream(p))) {
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(text.startsWith("{") && text.endsWith("}\n"), p + ": " + text);
        total += (int) text.lines().count();
      }
    }
    assertEquals(2 + lookups, total, "every line is in the current or a rolled file");
  }
}
