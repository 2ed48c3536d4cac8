package io.sediment.om.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ChannelCredentials;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.tls.TestCertificates;
import io.sediment.om.tls.TlsMaterial;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.CreateTokenRequest;
import io.sediment.proto.om.CreateTokenResponse;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.ListTokensRequest;
import io.sediment.proto.om.ListTokensResponse;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.RevokeTokenRequest;
import io.sediment.proto.om.TokenInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TLS server that authenticates its callers: bearer tokens (made through AdminService by an
 * administrator) and client certificates get in with the right principal and groups; every bad or
 * missing credential is UNAUTHENTICATED and changes nothing.
 */
class OmGrpcAuthenticationTest {

  @TempDir
  Path dir;

  /** The verifier's clock (the store's is the system's). */
  private final MutableClock clock = new MutableClock(System.currentTimeMillis());

  private TestCertificates ca;
  private OmMetadataStore store;
  private OmGrpcServer server;
  private final List<ManagedChannel> channels = new ArrayList<>();
  /** The slots of the calls, in call order; a slot's principal is null for a refused call. */
  private final List<CallPrincipal.Slot> seen = new ArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    ca = TestCertificates.newCa(dir.resolve("certs"), "test-ca");
    store = OmMetadataStore.open(dir.resolve("om"), OmStoreOptions.defaults());
    Path groups = dir.resolve("groups");
    Files.writeString(groups, "alice: ops, dev\n# bob is in no group\n");
    TestCertificates.Pem serverPem = ca.server("server");
    TlsMaterial tls = TlsMaterial.load(serverPem.cert(), serverPem.key(), ca.ca().cert());
    server = OmGrpcServer.builder(store).port(0)
        .credentials(tls.serverCredentials(false))
        .authentication(new Authenticator(new TokenVerifier(store, clock),
            GroupMapping.load(groups)))
        .administrators(new Administrators(Set.of("admin"), Set.of("ops")))
        .interceptor(new PrincipalProbe())
        .build().start();
  }

  @AfterEach
  void tearDown() {
    channels.forEach(ManagedChannel::shutdownNow);
    server.shutdown(Duration.ofSeconds(5));
    store.close();
  }

  /** An interceptor outside authentication: learns the principal through a slot. */
  private final class PrincipalProbe implements ServerInterceptor {
    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
        ServerCallHandler<Q, A> next) {
      CallPrincipal.Slot slot = new CallPrincipal.Slot();
      // Recorded first: a refused call's answer may reach the client before this returns.
      synchronized (seen) {
        seen.add(slot);
      }
      return Contexts.interceptCall(CallPrincipal.withSlot(slot), call, headers, next);
    }
  }

  private ManagedChannel channel(TestCertificates.Pem clientPem) throws IOException {
    TlsMaterial m = TlsMaterial.load(clientPem == null ? null : clientPem.cert(),
        clientPem == null ? null : clientPem.key(), ca.ca().cert());
    return channel(m.channelCredentials());
  }

  private ManagedChannel channel(ChannelCredentials c) {
    ManagedChannel ch = Grpc.newChannelBuilderForAddress("localhost", server.port(), c).build();
    channels.add(ch);
    return ch;
  }

  private AdminServiceGrpc.AdminServiceBlockingStub admin() throws IOException {
    return AdminServiceGrpc.newBlockingStub(channel(ca.client("admin")))
        .withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  private OmServiceGrpc.OmServiceBlockingStub withToken(String token) throws IOException {
    return OmServiceGrpc.newBlockingStub(channel((TestCertificates.Pem) null))
        .withCallCredentials(new BearerCallCredentials(token))
        .withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  private OmServiceGrpc.OmServiceBlockingStub withHeader(String authorization)
      throws IOException {
    Metadata h = new Metadata();
    h.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), authorization);
    return OmServiceGrpc.newBlockingStub(channel((TestCertificates.Pem) null))
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h))
        .withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  private static void createVolume(OmServiceGrpc.OmServiceBlockingStub om, String volume) {
    om.createVolume(CreateVolumeRequest.newBuilder().setVolume(volume).setOwner("alice").build());
  }

  private Principal lastSeen() {
    synchronized (seen) {
      return seen.get(seen.size() - 1).principal();
    }
  }

  private boolean volumeExists(String name) {
    return store.listVolumes(name, "", 1).items().stream()
        .anyMatch(v -> v.getName().equals(name));
  }

  private String token(String principal, long ttlMillis) throws IOException {
    return admin().createToken(CreateTokenRequest.newBuilder().setPrincipal(principal)
        .setTtlMillis(ttlMillis).build()).getToken();
  }

  @Test
  void aTokenLetsItsHolderInAsItsPrincipalWithGroups() throws IOException {
    String token = token("alice", 0);
    assertTrue(token.startsWith("sdt_"), token);
    createVolume(withToken(token), "vol");
    assertTrue(volumeExists("vol"));
    assertEquals(new Principal("alice", Set.of("ops", "dev")), lastSeen());
  }

  @Test
  void everyBadOrMissingCredentialIsUnauthenticatedAndChangesNothing() throws IOException {
    String good = token("alice", 60_000);
    String revoked = token("alice", 0);
    BearerToken parsed = BearerToken.parse(revoked);
    admin().revokeToken(RevokeTokenRequest.newBuilder().setId(parsed.id()).build());
    BearerToken g = BearerToken.parse(good);
    byte[] otherSecret = g.secret();
    otherSecret[0] ^= 1;
    String wrongSecret = new BearerToken(g.id(), otherSecret).text();
    String unknownId = new BearerToken("0123456789abcdef01234567", g.secret()).text();
    List<String> before = rawTokenRows();

    List<OmServiceGrpc.OmServiceBlockingStub> callers = List.of(
        withToken(wrongSecret), withToken(unknownId), withToken(revoked),
        withToken("sdt_nothex_abc"), withToken("garbage"),
        withHeader("Basic " + good), withHeader("Bearer"),
        OmServiceGrpc.newBlockingStub(channel((TestCertificates.Pem) null))
            .withDeadlineAfter(10, TimeUnit.SECONDS));
    for (OmServiceGrpc.OmServiceBlockingStub caller : callers) {
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
          () -> createVolume(caller, "vol"));
      assertEquals(Status.Code.UNAUTHENTICATED, e.getStatus().getCode(), e::toString);
      assertNull(lastSeen(), "a refused call binds no principal");
    }
    // The good one, then past its expiry.
    createVolume(withToken(good), "okay");
    clock.advance(Duration.ofMinutes(3));
    StatusRuntimeException expired = assertThrows(StatusRuntimeException.class,
        () -> createVolume(withToken(good), "vol"));
    assertEquals(Status.Code.UNAUTHENTICATED, expired.getStatus().getCode());
    assertTrue(expired.getStatus().getDescription().contains("expired"), expired::toString);
    assertFalse(volumeExists("vol"));
    assertEquals(before, rawTokenRows());
  }

  @Test
  void aClientCertificateNamesItsCommonNameOrElseItsWholeSubject() throws Exception {
    createVolume(OmServiceGrpc.newBlockingStub(channel(ca.client("alice"))), "vol1");
    assertEquals(new Principal("alice", Set.of("ops", "dev")), lastSeen());

    TestCertificates.Pem noCn = ca.clientWithSubject("no-cn", "O=Example,C=DE");
    String subject;
    try (InputStream in = Files.newInputStream(noCn.cert())) {
      subject = ((X509Certificate) CertificateFactory.getInstance("X.509")
          .generateCertificate(in)).getSubjectX500Principal().getName();
    }
    assertTrue(subject.contains("O=Example") && subject.contains("C=DE"), subject);
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () ->
        AdminServiceGrpc.newBlockingStub(channel(noCn)).listTokens(
            ListTokensRequest.getDefaultInstance()));
    assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
    assertEquals(Principal.user(subject), lastSeen());
  }

  @Test
  void onlyAdministratorsManageTokensAndTheyNeverSeeSecretsOrHashes() throws IOException {
    String bob = token("bob", 0);
    OmServiceGrpc.OmServiceBlockingStub asBob = withToken(bob);
    AdminServiceGrpc.AdminServiceBlockingStub bobAdmin =
        AdminServiceGrpc.newBlockingStub(asBob.getChannel())
            .withCallCredentials(new BearerCallCredentials(bob));
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () ->
        bobAdmin.createToken(CreateTokenRequest.newBuilder().setPrincipal("bob").build()));
    assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());

    CreateTokenResponse made = admin().createToken(
        CreateTokenRequest.newBuilder().setPrincipal("carol").setTtlMillis(3_600_000).build());
    TokenInfo info = made.getInfo();
    assertEquals(info.getCreatedMillis() + 3_600_000, info.getExpiresMillis());
    ListTokensResponse list = admin().listTokens(ListTokensRequest.getDefaultInstance());
    assertEquals(2, list.getTokensCount());
    assertTrue(list.getTokensList().contains(info));
    assertFalse(list.toString().contains(made.getToken().substring(30)));

    // The stored row holds neither the token nor its secret.
    byte[] secret = BearerToken.parse(made.getToken()).secret();
    String secretHex = HexFormat.of().formatHex(secret);
    for (String row : rawTokenRows()) {
      assertFalse(row.contains(secretHex), "secret stored");
      assertFalse(row.contains(HexFormat.of().formatHex(
          made.getToken().getBytes(StandardCharsets.US_ASCII))), "token stored");
    }
    // And the stored hash is the salted one.
    var row = store.authTokens().get(info.getId());
    assertArrayEquals(BearerToken.hash(row.getSalt().toByteArray(), secret),
        row.getHash().toByteArray());
  }

  @Test
  void aTokenIsSentInPlaintextOnlyToALoopbackAuthority() throws IOException {
    OmGrpcServer plain = OmGrpcServer.builder(store).port(0)
        .authentication(new Authenticator(new TokenVerifier(store, clock), GroupMapping.NONE))
        .build().start();
    try {
      String token = token("alice", 0);
      ManagedChannel remote = Grpc.newChannelBuilderForAddress("127.0.0.1", plain.port(),
          InsecureChannelCredentials.create()).overrideAuthority("om.example.com:9862").build();
      channels.add(remote);
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
          () -> createVolume(OmServiceGrpc.newBlockingStub(remote)
              .withCallCredentials(new BearerCallCredentials(token)), "vol"));
      assertEquals(Status.Code.UNAUTHENTICATED, e.getStatus().getCode());
      assertTrue(e.getStatus().getDescription().contains("without TLS"), e::toString);
      assertFalse(volumeExists("vol"));
      ManagedChannel local = Grpc.newChannelBuilderForAddress("127.0.0.1", plain.port(),
          InsecureChannelCredentials.create()).build();
      channels.add(local);
      createVolume(OmServiceGrpc.newBlockingStub(local)
          .withCallCredentials(new BearerCallCredentials(token)), "vol");
      assertTrue(volumeExists("vol"));
    } finally {
      channels.forEach(ManagedChannel::shutdownNow);
      plain.shutdown(Duration.ofSeconds(5));
    }
  }

  /** Every row of the token table, key and value in hex. */
  private List<String> rawTokenRows() {
    List<String> out = new ArrayList<>();
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = store.dbStore()
        .getTable(OmDBDefinition.AUTH_TOKEN_TABLE.name()).iterator()) {
      while (it.hasNext()) {
        KeyValue<byte[], byte[]> kv = it.next();
        out.add(HexFormat.of().formatHex(kv.getKey()) + "="
            + HexFormat.of().formatHex(kv.getValue()));
      }
    }
    return out;
  }
}
