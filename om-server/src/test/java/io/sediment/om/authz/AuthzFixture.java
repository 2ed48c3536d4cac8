package io.sediment.om.authz;

import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.stub.MetadataUtils;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.om.OmAcls;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.acl.AclTarget;
import io.sediment.om.auth.Administrators;
import io.sediment.om.auth.CallPrincipal;
import io.sediment.om.auth.Principal;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.OmServiceGrpc;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A store in a directory, an {@link OmGrpcServer} over it with authorization on (administrators:
 * user {@code root}, group {@code admins}), and a loopback channel. The caller of each call is
 * whom the client's stub names in two headers, bound by a test interceptor standing in for the
 * authenticating one ({@link #om(Principal)}); no header: {@link Principal#ANONYMOUS}.
 *
 * <p>Records are seeded with owners and ACL entries straight into their tables.
 */
final class AuthzFixture implements AutoCloseable {

  static final Administrators ADMINISTRATORS = new Administrators(java.util.Set.of("root"),
      java.util.Set.of("admins"));

  private static final Metadata.Key<String> USER =
      Metadata.Key.of("x-test-user", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> GROUPS =
      Metadata.Key.of("x-test-groups", Metadata.ASCII_STRING_MARSHALLER);

  final OmMetadataStore store;
  final OmGrpcServer server;
  final ManagedChannel channel;

  AuthzFixture(Path dir, boolean authorization) throws IOException {
    // Acknowledged before fsync: the tests never crash the process, and fsyncs dominate them.
    store = OmMetadataStore.open(dir,
        OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
    OmGrpcServer.Builder b = OmGrpcServer.builder(store).port(0)
        .drainTimeout(Duration.ofSeconds(5)).interceptor(new BindFromHeaders());
    if (authorization) {
      b.administrators(ADMINISTRATORS);
    }
    try {
      server = b.build().start();
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
        InsecureChannelCredentials.create()).build();
  }

  OmServiceGrpc.OmServiceBlockingStub om(Principal p) {
    return OmServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers(p)));
  }

  AdminServiceGrpc.AdminServiceBlockingStub admin(Principal p) {
    return AdminServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers(p)));
  }

  private static Metadata headers(Principal p) {
    Metadata m = new Metadata();
    if (!p.isAnonymous()) {
      m.put(USER, p.name());
      m.put(GROUPS, String.join(",", p.groups()));
    }
    return m;
  }

  /** Rewrites the volume's owner and ACL entries. */
  void seedVolume(String volume, String owner, List<OmAcl> acls) {
    // Through the write path: the store keeps volume and bucket rows parsed in memory.
    store.setVolumeProperties(volume, owner, null, null);
    new OmAcls(store).set(AclTarget.volume(volume), acls);
  }

  /** Rewrites the bucket's owner and ACL entries. */
  void seedBucket(String volume, String bucket, String owner, List<OmAcl> acls) {
    store.setBucketProperties(volume, bucket, owner, null, null);
    new OmAcls(store).set(AclTarget.bucket(volume, bucket), acls);
  }

  /** Rewrites the owner and ACL entries of a committed key of an OBJECT_STORE bucket. */
  void seedKey(String volume, String bucket, String key, String owner, List<OmAcl> acls) {
    Table<String, KeyInfo> t = store.dbStore().getTable(OmDBDefinition.KEY_TABLE);
    String k = OmKeys.objectKey(volume, bucket, key);
    t.put(k, t.get(k).toBuilder().setOwner(owner).clearAcls().addAllAcls(acls).build());
  }

  /** A digest of every row of every table: equal digests, nothing changed. */
  byte[] digest() {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (TableDefinition<?, ?> def : OmDBDefinition.DEFINITION.tables()) {
        md.update(def.name().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Table<byte[], byte[]> raw = store.dbStore().getTable(def.name());
        try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = raw.iterator()) {
          while (it.hasNext()) {
            KeyValue<byte[], byte[]> kv = it.next();
            md.update(kv.getKey());
            md.update((byte) 0);
            md.update(kv.getValue());
          }
        }
      }
      return md.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  static boolean sameDigest(byte[] a, byte[] b) {
    return Arrays.equals(a, b);
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server.shutdown(Duration.ofSeconds(5));
    store.close();
  }

  /** Binds the principal the two headers name (stands in for the authenticating interceptor). */
  private static final class BindFromHeaders implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
        ServerCallHandler<Q, R> next) {
      String user = headers.get(USER);
      if (user == null) {
        return next.startCall(call, headers);
      }
      String groups = headers.get(GROUPS);
      Principal p = new Principal(user, groups == null || groups.isEmpty() ? java.util.Set.of()
          : new HashSet<>(Arrays.asList(groups.split(","))));
      return Contexts.interceptCall(CallPrincipal.bind(p), call, headers, next);
    }
  }
}
