package io.sediment.bench;

import io.grpc.ChannelCredentials;
import io.grpc.CompositeChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.sediment.db.Table;
import io.sediment.om.OmAcls;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.acl.AclTarget;
import io.sediment.om.acl.AclText;
import io.sediment.om.auth.Administrators;
import io.sediment.om.auth.Authenticator;
import io.sediment.om.auth.BearerCallCredentials;
import io.sediment.om.auth.BearerToken;
import io.sediment.om.auth.GroupMapping;
import io.sediment.om.auth.Principal;
import io.sediment.om.auth.Resource;
import io.sediment.om.auth.TokenVerifier;
import io.sediment.om.authz.AclDecision;
import io.sediment.om.authz.Grants;
import io.sediment.om.authz.NativeAccessControl;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.om.tls.TestCertificates;
import io.sediment.om.tls.TlsMaterial;
import io.sediment.proto.om.AclRight;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListObjectsV2Response;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.VolumeInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Suite {@code security}: what authentication and authorization cost a call, one client thread
 * over gRPC on loopback against one server over one store of {@value #KEYS} keys in one OBJECT_STORE
 * bucket.
 *
 * <p>Setups ({@link #setup}):
 * <ul>
 *   <li>{@code plaintext}: no TLS, no authentication, no ACL checks (as {@code serve} runs on
 *       loopback by default).
 *   <li>{@code tls}: the floor of {@code secured}: TLS alone (the same certificate), no
 *       authentication, no ACL checks.
 *   <li>{@code secured}: TLS (an EC P-256 certificate made at start), a bearer token on every call
 *       (verified by one point read of the token table and a SHA-256), and every call checked
 *       against the ACLs: the caller {@code bench} is no administrator and owns nothing; the
 *       volume grants it READ and the bucket READ and LIST by entries ({@code user:bench:...}),
 *       so each check reads and evaluates the volume's and the bucket's records.
 * </ul>
 * Operations: {@link #lookupKey} (a random one of the keys) and {@link #listPage} (a
 * ListObjectsV2 page of 1,000 keys from the start of the bucket). Two more time the ACL check
 * alone, the same in every setup: {@link #aclCheck}, {@link NativeAccessControl#check} of READ
 * on a key the bucket grants (the volume and bucket records come from the store's parsed-row
 * cache, then the decision); {@link #aclCheckFromTables}, the same with the two records read from
 * RocksDB as every check did before the cache; and {@link #aclDecision}, the decision alone over
 * grants built in advance. Run through
 * {@code dev-support/bin/bench security [--quick]}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(java.util.concurrent.TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class SecurityCostBenchmark {

  static final int KEYS = 2_000;
  static final String VOLUME = "vol";
  static final String BUCKET = "bkt";
  static final int PAGE = 1_000;

  /** {@code plaintext}, {@code tls} or {@code secured} (see the class comment). */
  @Param({"plaintext", "tls", "secured"})
  public String setup;

  private Path dir;
  private OmMetadataStore store;
  private OmGrpcServer server;
  private ManagedChannel channel;
  private OmServiceGrpc.OmServiceBlockingStub stub;
  private NativeAccessControl acl;
  private Principal bench;
  private Grants volumeGrants;
  private Grants bucketGrants;
  private Resource someKey;
  private Table<String, VolumeInfo> volumeTable;
  private Table<String, BucketInfo> bucketTable;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    dir = Files.createTempDirectory("sediment-security");
    store = OmMetadataStore.open(dir.resolve("store"), OmStoreOptions.defaults());
    store.createVolume(VOLUME, "admin");
    store.createBucket(VOLUME, BUCKET, BucketLayout.OBJECT_STORE, "admin", 0);
    for (int i = 0; i < KEYS; i++) {
      String key = key(i);
      OpenKeySession s = store.openKey(VOLUME, BUCKET, key, "admin");
      store.commitKey(VOLUME, BUCKET, key, s.clientId(), 1024);
    }
    OmAcls acls = new OmAcls(store);
    acls.add(AclTarget.volume(VOLUME), AclText.parseList("user:bench:r"));
    acls.add(AclTarget.bucket(VOLUME, BUCKET), AclText.parseList("user:bench:rl"));
    Administrators admins = Administrators.users("admin");
    acl = new NativeAccessControl(admins, store);
    bench = Principal.user("bench");
    VolumeInfo v = store.getVolumeInfo(VOLUME);
    BucketInfo b = store.getBucketInfo(VOLUME, BUCKET);
    volumeGrants = Grants.of(v.getOwner(), v.getAclsList());
    bucketGrants = Grants.of(b.getOwner(), b.getAclsList());
    someKey = Resource.key(VOLUME, BUCKET, key(KEYS / 2));
    volumeTable = store.dbStore().getTable(OmDBDefinition.VOLUME_TABLE);
    bucketTable = store.dbStore().getTable(OmDBDefinition.BUCKET_TABLE);

    OmGrpcServer.Builder builder = OmGrpcServer.builder(store).port(0)
        .drainTimeout(Duration.ofSeconds(1));
    ChannelCredentials credentials;
    if ("secured".equals(setup)) {
      TestCertificates certs = TestCertificates.newCa(dir.resolve("certs"), "bench-ca");
      TestCertificates.Pem pem = certs.server("om");
      builder.credentials(TlsMaterial.load(pem.cert(), pem.key(), null).serverCredentials())
          .authentication(new Authenticator(new TokenVerifier(store, Clock.systemUTC()),
              GroupMapping.NONE))
          .administrators(admins);
      BearerToken.Issued token = BearerToken.issue();
      store.authTokens().create(token.id(), "bench", token.salt(), token.hash(), null);
      credentials = CompositeChannelCredentials.create(
          TlsMaterial.load(null, null, certs.ca().cert()).channelCredentials(),
          new BearerCallCredentials(token.token()));
    } else if ("tls".equals(setup)) {
      TestCertificates certs = TestCertificates.newCa(dir.resolve("certs"), "bench-ca");
      TestCertificates.Pem pem = certs.server("om");
      builder.credentials(TlsMaterial.load(pem.cert(), pem.key(), null).serverCredentials());
      credentials = TlsMaterial.load(null, null, certs.ca().cert()).channelCredentials();
    } else if ("plaintext".equals(setup)) {
      credentials = InsecureChannelCredentials.create();
    } else {
      throw new IllegalArgumentException("unknown setup " + setup);
    }
    server = builder.build().start();
    channel = Grpc.newChannelBuilderForAddress("localhost", server.port(), credentials).build();
    stub = OmServiceGrpc.newBlockingStub(channel);
    // Fail here, not in the first measured call, if the setup cannot read.
    if (listPage().getContentsCount() != PAGE) {
      throw new IllegalStateException("a page of " + PAGE + " keys expected");
    }
  }

  private static String key(int i) {
    return String.format("key-%06d", i);
  }

  @Benchmark
  public KeyInfo lookupKey() {
    return stub.lookupKey(LookupKeyRequest.newBuilder().setVolume(VOLUME).setBucket(BUCKET)
        .setKey(key(ThreadLocalRandom.current().nextInt(KEYS))).build()).getKey();
  }

  @Benchmark
  public ListObjectsV2Response listPage() {
    return stub.listObjectsV2(ListObjectsV2Request.newBuilder().setVolume(VOLUME)
        .setBucket(BUCKET).setMaxKeys(PAGE).build());
  }

  @Benchmark
  public Resource aclCheck() {
    acl.check(bench, someKey, AclRight.ACL_READ);
    return someKey;
  }

  /**
   * The check as it was before volume and bucket rows were kept parsed: two point reads of the
   * rows from RocksDB, their grants, then the decision; the side-by-side floor of
   * {@link #aclCheck}.
   */
  @Benchmark
  public boolean aclCheckFromTables() {
    VolumeInfo v = volumeTable.get(OmKeys.volumeKey(VOLUME));
    BucketInfo b = bucketTable.get(OmKeys.bucketKey(VOLUME, BUCKET));
    return AclDecision.allows(bench, Resource.Type.KEY, AclRight.ACL_READ,
        Grants.of(v.getOwner(), v.getAclsList()), Grants.of(b.getOwner(), b.getAclsList()), null);
  }

  @Benchmark
  public boolean aclDecision() {
    return AclDecision.allows(bench, Resource.Type.KEY, AclRight.ACL_READ, volumeGrants,
        bucketGrants, null);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    if (channel != null) {
      channel.shutdownNow();
    }
    if (server != null) {
      server.shutdown(Duration.ofSeconds(2));
    }
    if (store != null) {
      store.close();
    }
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
