package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.DeleteKeyResult;
import io.sediment.proto.om.DeleteKeyResult.Outcome;
import io.sediment.proto.om.DeleteKeysRequest;
import io.sediment.proto.om.DeleteKeysResponse;
import io.sediment.proto.om.KeyInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * DeleteKeys through a real server (no authorization): a result per key in request order, the
 * page cap shared with the listings, and whole-request errors that change nothing.
 */
class OmGrpcDeleteKeysTest {

  private static final int CAP = 5;

  @TempDir
  Path dir;
  private GrpcFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new GrpcFixture(dir.resolve("om"), OmStoreOptions.defaults().withMaxListSize(CAP)
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE), OmGrpcServer.DEFAULT_MAX_INBOUND_MESSAGE_BYTES);
    f.store.createVolume("vol", "alice");
    f.store.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
    for (String k : List.of("a", "b", "c")) {
      long id = f.store.openKey("vol", "obs", k, null).clientId();
      f.store.commitKey("vol", "obs", k, id, 7);
    }
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private static DeleteKeysRequest request(String bucket, List<String> keys) {
    return DeleteKeysRequest.newBuilder().setVolume("vol").setBucket(bucket).addAllKeys(keys)
        .build();
  }

  private List<String> live() {
    return f.store.listKeys("vol", "obs", null, null, CAP, null).items().stream()
        .map(KeyInfo::getKeyName).toList();
  }

  @Test
  void eachKeyHasItsResultInRequestOrder() {
    DeleteKeysResponse r = f.om.deleteKeys(request("obs", List.of("c", "zz", "a", "c")));
    assertEquals(List.of("c", "zz", "a", "c"),
        r.getResultsList().stream().map(DeleteKeyResult::getKey).toList());
    assertEquals(List.of(Outcome.DELETED, Outcome.NOT_FOUND, Outcome.DELETED, Outcome.NOT_FOUND),
        r.getResultsList().stream().map(DeleteKeyResult::getOutcome).toList());
    assertTrue(r.getResultsList().stream().allMatch(x -> x.getErrorCode().isEmpty()), r.toString());
    assertEquals(List.of("b"), live());
    Map<OmCounter, Long> counters = f.store.counters();
    assertEquals(1L, counters.get(OmCounter.KEYS));
    assertEquals(2L, counters.get(OmCounter.DELETED_KEYS));
    assertEquals(f.store.countFromScan(), counters);
  }

  @Test
  void aFullPageIsAcceptedAndOneKeyMoreIsInvalidArgument() {
    List<String> page = IntStream.range(0, CAP).mapToObj(i -> "p" + i).toList();
    assertEquals(CAP, f.om.deleteKeys(request("obs", page)).getResultsCount());
    List<String> tooMany = IntStream.rangeClosed(0, CAP).mapToObj(i -> i == 0 ? "a" : "p" + i)
        .toList();
    StatusRuntimeException e = rejected(Status.Code.INVALID_ARGUMENT,
        () -> f.om.deleteKeys(request("obs", tooMany)));
    assertTrue(e.getStatus().getDescription().contains("cap " + CAP), e.getMessage());
    e = rejected(Status.Code.INVALID_ARGUMENT, () -> f.om.deleteKeys(request("obs", List.of())));
    assertTrue(e.getStatus().getDescription().contains("names no key"), e.getMessage());
  }

  @Test
  void badNamesAMissingBucketAndFsoRejectTheWholeRequest() {
    StatusRuntimeException e = rejected(Status.Code.INVALID_ARGUMENT,
        () -> f.om.deleteKeys(request("obs", List.of("a", "", "b"))));
    assertTrue(e.getStatus().getDescription().contains("Key 2 of 3"), e.getMessage());
    rejected(Status.Code.NOT_FOUND, () -> f.om.deleteKeys(request("nobucket", List.of("a"))));
    f.store.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    rejected(Status.Code.UNIMPLEMENTED, () -> f.om.deleteKeys(request("fso", List.of("a"))));
  }

  /** Asserts the call fails with {@code code} and leaves the bucket's keys as they were. */
  private StatusRuntimeException rejected(Status.Code code, Executable call) {
    List<String> before = live();
    Map<OmCounter, Long> counters = f.store.counters();
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
    assertEquals(code, e.getStatus().getCode(), e.getMessage());
    assertEquals(before, live());
    assertEquals(counters, f.store.counters());
    return e;
  }
}
