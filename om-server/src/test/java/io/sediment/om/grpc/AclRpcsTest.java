package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.acl.AclText;
import io.sediment.om.auth.AccessControl;
import io.sediment.om.auth.CallPrincipal;
import io.sediment.om.auth.Principal;
import io.sediment.om.requests.ReadGate;
import io.sediment.proto.om.AclResource;
import io.sediment.proto.om.AddAclRequest;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateDirectoryRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.GetAclRequest;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import io.sediment.proto.om.RemoveAclRequest;
import io.sediment.proto.om.SetAclRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GetAcl, SetAcl, AddAcl and RemoveAcl end to end over gRPC: a new key carries its bucket's
 * DEFAULT entries, edits answer the stored canonical ACL, missing targets are NOT_FOUND and bad
 * entries INVALID_ARGUMENT; the server's AccessControl is asked for READ_ACL (GetAcl) or
 * WRITE_ACL (the edits) on the target with the caller's principal, and a denial is
 * PERMISSION_DENIED with nothing changed.
 */
class AclRpcsTest {

  @TempDir
  Path dir;

  private static List<OmAcl> parse(String... texts) {
    return Arrays.stream(texts).map(AclText::parse).toList();
  }

  private static List<String> text(List<OmAcl> acls) {
    return AclText.formatAll(acls);
  }

  private static AclResource at(String volume, String bucket, String key) {
    return AclResource.newBuilder().setVolume(volume).setBucket(bucket).setKey(key).build();
  }

  private static void namespace(OmServiceGrpc.OmServiceBlockingStub om) {
    om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("alice").build());
    om.createBucket(CreateBucketRequest.newBuilder().setVolume("vol").setBucket("bkt")
        .setLayout(BucketLayout.OBJECT_STORE).build());
    om.createBucket(CreateBucketRequest.newBuilder().setVolume("vol").setBucket("fso")
        .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
  }

  private static void putKey(OmServiceGrpc.OmServiceBlockingStub om, String key) {
    OpenKeyResponse open = om.openKey(OpenKeyRequest.newBuilder().setVolume("vol")
        .setBucket("bkt").setKey(key).setOwner("bob").build());
    om.commitKey(CommitKeyRequest.newBuilder().setVolume("vol").setBucket("bkt").setKey(key)
        .setClientId(open.getClientId()).setDataSize(1).build());
  }

  private static Status.Code codeOf(Runnable call) {
    return assertThrows(StatusRuntimeException.class, call::run).getStatus().getCode();
  }

  @Test
  void editsAndReadsEndToEnd() throws Exception {
    try (GrpcFixture f = new GrpcFixture(dir)) {
      namespace(f.om);
      assertEquals(List.of("user:alice:a", "group:dev:r[DEFAULT]"), text(f.om.addAcl(
          AddAclRequest.newBuilder().setTarget(at("vol", "bkt", ""))
              .addAllAcls(parse("group:dev:r[DEFAULT]")).build()).getAclsList()));
      putKey(f.om, "k");
      assertEquals(List.of("user:bob:a", "group:dev:r"), text(f.om.getAcl(
          GetAclRequest.newBuilder().setTarget(at("vol", "bkt", "k")).build()).getAclsList()));
      assertEquals(List.of("user:eve:rw"), text(f.om.setAcl(SetAclRequest.newBuilder()
          .setTarget(at("vol", "bkt", "k")).addAllAcls(parse("user:eve:r", "user:eve:w")).build())
          .getAclsList()));
      assertEquals(List.of("user:eve:w"), text(f.om.removeAcl(RemoveAclRequest.newBuilder()
          .setTarget(at("vol", "bkt", "k")).addAllAcls(parse("user:eve:r")).build())
          .getAclsList()));
      f.om.createDirectory(CreateDirectoryRequest.newBuilder().setVolume("vol").setBucket("fso")
          .setPath("a/b").build());
      assertEquals(List.of("user:alice:a", "world::l"), text(f.om.addAcl(AddAclRequest
          .newBuilder().setTarget(at("vol", "fso", "a/b")).addAllAcls(parse("world::l")).build())
          .getAclsList()));
      assertEquals(List.of("user:alice:a"), text(f.om.getAcl(GetAclRequest.newBuilder()
          .setTarget(at("vol", "", "")).build()).getAclsList()));

      assertEquals(Status.Code.NOT_FOUND, codeOf(() -> f.om.getAcl(GetAclRequest.newBuilder()
          .setTarget(at("vol", "bkt", "nokey")).build())));
      assertEquals(Status.Code.NOT_FOUND, codeOf(() -> f.om.addAcl(AddAclRequest.newBuilder()
          .setTarget(at("nov", "", "")).addAllAcls(parse("user:x:r")).build())));
      assertEquals(Status.Code.INVALID_ARGUMENT, codeOf(() -> f.om.addAcl(AddAclRequest
          .newBuilder().setTarget(at("vol", "bkt", "k")).addAllAcls(parse("user:x:r[DEFAULT]"))
          .build())));
      assertEquals(Status.Code.INVALID_ARGUMENT, codeOf(() -> f.om.getAcl(GetAclRequest
          .newBuilder().setTarget(at("vol", "", "k")).build())));
      assertEquals(List.of("user:eve:w"), text(f.om.getAcl(GetAclRequest.newBuilder()
          .setTarget(at("vol", "bkt", "k")).build()).getAclsList()));
    }
  }

  private static final Metadata.Key<String> USER =
      Metadata.Key.of("x-test-user", Metadata.ASCII_STRING_MARSHALLER);

  /** Binds the principal the test names in a header, as the authenticating interceptor would. */
  private static final ServerInterceptor BIND = new ServerInterceptor() {
    @Override
    public <Q, R> io.grpc.ServerCall.Listener<Q> interceptCall(io.grpc.ServerCall<Q, R> call,
        Metadata headers, io.grpc.ServerCallHandler<Q, R> next) {
      String user = headers.get(USER);
      return Contexts.interceptCall(
          CallPrincipal.bind(user == null ? Principal.ANONYMOUS : Principal.user(user)),
          call, headers, next);
    }
  };

  @Test
  void theAccessControlDecidesWithTheCallersPrincipalAndADenialChangesNothing() throws Exception {
    List<String> asked = new ArrayList<>();
    AccessControl onlyAlice = (principal, resource, right) -> {
      asked.add(principal.name() + " " + right + " " + resource);
      if (!principal.name().equals("alice")) {
        throw Status.PERMISSION_DENIED.withDescription(right + " on " + resource)
            .asRuntimeException();
      }
    };
    try (OmMetadataStore store = OmMetadataStore.open(dir.resolve("store"))) {
      OmServiceImpl service = new OmServiceImpl(store, WriteRequests.over(store), ReadGate.NONE,
          Runnable::run, onlyAlice);
      Server server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
          .addService(ServerInterceptors.intercept(service, BIND)).build().start();
      ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.getPort(),
          InsecureChannelCredentials.create()).build();
      try {
        OmServiceGrpc.OmServiceBlockingStub base = OmServiceGrpc.newBlockingStub(channel)
            .withDeadlineAfter(30, TimeUnit.SECONDS);
        OmServiceGrpc.OmServiceBlockingStub alice = as(base, "alice");
        OmServiceGrpc.OmServiceBlockingStub mallory = as(base, "mallory");
        namespace(alice);
        putKey(alice, "k");
        asked.clear();

        List<String> before = text(alice.getAcl(GetAclRequest.newBuilder()
            .setTarget(at("vol", "bkt", "k")).build()).getAclsList());
        StatusRuntimeException denied = assertThrows(StatusRuntimeException.class,
            () -> mallory.setAcl(SetAclRequest.newBuilder().setTarget(at("vol", "bkt", "k"))
                .addAllAcls(parse("user:mallory:a")).build()));
        assertEquals(Status.Code.PERMISSION_DENIED, denied.getStatus().getCode());
        assertTrue(denied.getStatus().getDescription().contains("ACL_WRITE_ACL"));
        assertEquals(Status.Code.PERMISSION_DENIED, codeOf(() -> mallory.addAcl(AddAclRequest
            .newBuilder().setTarget(at("vol", "bkt", "")).addAllAcls(parse("user:m:a")).build())));
        assertEquals(Status.Code.PERMISSION_DENIED, codeOf(() -> mallory.removeAcl(
            RemoveAclRequest.newBuilder().setTarget(at("vol", "", ""))
                .addAllAcls(parse("user:alice:a")).build())));
        assertEquals(Status.Code.PERMISSION_DENIED, codeOf(() -> mallory.getAcl(GetAclRequest
            .newBuilder().setTarget(at("vol", "bkt", "k")).build())));

        assertEquals(before, text(alice.getAcl(GetAclRequest.newBuilder()
            .setTarget(at("vol", "bkt", "k")).build()).getAclsList()));
        assertEquals(List.of("user:alice:a"), text(alice.getAcl(GetAclRequest.newBuilder()
            .setTarget(at("vol", "", "")).build()).getAclsList()));
        assertEquals(List.of(
            "alice ACL_READ_ACL /vol/bkt/k",
            "mallory ACL_WRITE_ACL /vol/bkt/k",
            "mallory ACL_WRITE_ACL /vol/bkt",
            "mallory ACL_WRITE_ACL /vol",
            "mallory ACL_READ_ACL /vol/bkt/k",
            "alice ACL_READ_ACL /vol/bkt/k",
            "alice ACL_READ_ACL /vol"), asked);
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  private static OmServiceGrpc.OmServiceBlockingStub as(OmServiceGrpc.OmServiceBlockingStub s,
      String user) {
    Metadata h = new Metadata();
    h.put(USER, user);
    return s.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h));
  }
}
