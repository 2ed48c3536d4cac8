package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Message;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.TokenSpellings;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListOpenFilesRequest;
import io.sediment.proto.om.ListSnapshotsRequest;
import io.sediment.proto.om.ListStatusRequest;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every listing RPC that takes a continuation token accepts it only as issued: the '='-padded
 * form and each last character that differs only in the bits base64 leaves unused decode to the
 * same bytes, and each is refused with INVALID_ARGUMENT like an altered token, while the issued
 * token still continues the listing.
 */
class OmGrpcTokenSpellingTest {

  private static final String V = "vol";
  /** Names of every length from 3 to 8, so some page ends on a token that can be respelled. */
  private static final String[] NAMES =
      {"abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh"};

  @TempDir Path dir;
  private GrpcFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new GrpcFixture(dir.resolve("om"), OmStoreOptions.defaults()
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE),
        OmGrpcServer.DEFAULT_MAX_INBOUND_MESSAGE_BYTES);
    f.store.createVolume(V, "o");
    f.store.createBucket(V, "obs", BucketLayout.OBJECT_STORE, null, 0);
    f.store.createBucket(V, "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    for (String name : NAMES) {
      f.store.commitKey(V, "obs", name, f.store.openKey(V, "obs", name, null).clientId(), 1);
      f.store.commitKey(V, "obs", "d/" + name + "/x",
          f.store.openKey(V, "obs", "d/" + name + "/x", null).clientId(), 1);
      f.store.openKey(V, "obs", "open/" + name, null);
      f.store.fso().commitFile(V, "fso", name, f.store.fso().createFile(V, "fso", name, null).clientId(), 1);
      f.store.snapshots().create(V, "obs", name);
    }
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void listKeys() {
    ListKeysRequest req = ListKeysRequest.newBuilder().setVolume(V).setBucket("obs").build();
    onlyTheIssuedSpellingIsAccepted((size, token) -> f.om.listKeys(req.toBuilder()
        .setMaxKeys(size).setPageToken(token).build()), r -> r.getNextPageToken());
  }

  @Test
  void listObjectsV2() {
    for (String delimiter : new String[] {"", "/"}) {
      ListObjectsV2Request req = ListObjectsV2Request.newBuilder().setVolume(V).setBucket("obs")
          .setPrefix("d/").setDelimiter(delimiter).build();
      onlyTheIssuedSpellingIsAccepted((size, token) -> f.om.listObjectsV2(req.toBuilder()
          .setMaxKeys(size).setContinuationToken(token).build()),
          r -> r.getNextContinuationToken());
    }
  }

  @Test
  void listStatus() {
    for (boolean recursive : new boolean[] {false, true}) {
      ListStatusRequest req = ListStatusRequest.newBuilder().setVolume(V).setBucket("fso")
          .setRecursive(recursive).build();
      onlyTheIssuedSpellingIsAccepted((size, token) -> f.om.listStatus(req.toBuilder()
          .setNumEntries(size).setPageToken(token).build()), r -> r.getNextPageToken());
    }
  }

  @Test
  void listOpenFiles() {
    ListOpenFilesRequest req = ListOpenFilesRequest.newBuilder().setVolume(V).setBucket("obs")
        .build();
    onlyTheIssuedSpellingIsAccepted((size, token) -> f.om.listOpenFiles(req.toBuilder()
        .setMaxKeys(size).setPageToken(token).build()), r -> r.getNextPageToken());
  }

  @Test
  void listSnapshots() {
    ListSnapshotsRequest req = ListSnapshotsRequest.newBuilder().setVolume(V).setBucket("obs")
        .build();
    onlyTheIssuedSpellingIsAccepted((size, token) -> f.om.listSnapshots(req.toBuilder()
        .setMaxEntries(size).setPageToken(token).build()), r -> r.getNextPageToken());
  }

  /**
   * Finds a page size whose first page issues a token with other spellings, then sends each
   * spelling with that page size: refused; the issued token: the second page.
   */
  private <R extends Message> void onlyTheIssuedSpellingIsAccepted(
      BiFunction<Integer, ByteString, R> list, Function<R, ByteString> nextToken) {
    for (int size = 1; size < NAMES.length; size++) {
      String token = nextToken.apply(list.apply(size, ByteString.EMPTY)).toStringUtf8();
      assertFalse(token.isEmpty(), "a page of " + size + " is truncated");
      Map<String, String> spellings = TokenSpellings.of(token);
      if (spellings.isEmpty()) {
        continue;
      }
      R second = list.apply(size, ByteString.copyFromUtf8(token));
      int page = size;
      spellings.forEach((how, respelled) -> {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
            () -> list.apply(page, ByteString.copyFromUtf8(respelled)), how);
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), how);
        assertTrue(e.getStatus().getDescription().contains(
            "The continuation token is invalid: it was altered"), how + ": " + e.getMessage());
      });
      assertEquals(withoutToken(second),
          withoutToken(list.apply(size, ByteString.copyFromUtf8(token))),
          "the issued token still continues the listing");
      return;
    }
    throw new AssertionError("no page size issued a token with other spellings");
  }

  /** A page without its next token (which carries its issue time). */
  private static Message withoutToken(Message page) {
    Message.Builder b = page.toBuilder();
    for (Descriptors.FieldDescriptor field : page.getDescriptorForType().getFields()) {
      if (field.getName().endsWith("_token")) {
        b.clearField(field);
      }
    }
    return b.build();
  }
}
