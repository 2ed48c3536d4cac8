package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.sediment.db.DBStore;
import io.sediment.db.StoreClosedException;
import io.sediment.db.StoreOutOfSpaceException;
import io.sediment.db.Table;
import io.sediment.db.codec.CodecException;
import io.sediment.db.testing.LogCapture;
import io.sediment.db.testing.TestStores;
import io.sediment.om.core.OmException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every om-metadata error code and the other failures map to the documented gRPC status. */
class GrpcStatusesTest {

  @Test
  void everyOmCodeMapsOneToOneWithItsMessage() {
    for (OmException.Code code : OmException.Code.values()) {
      Status s = GrpcStatuses.toStatus(new OmException(code, "what to fix"));
      assertEquals(code.name(), s.getCode().name());
      assertEquals("what to fix", s.getDescription());
    }
  }

  @Test
  void aClosedStoreIsUnavailableAndUnexpectedFailuresAreInternal() {
    assertEquals(Status.Code.UNAVAILABLE,
        GrpcStatuses.toStatus(new StoreClosedException("Store om is closed")).getCode());
    assertEquals(Status.Code.INTERNAL,
        GrpcStatuses.toStatus(new IllegalStateException("a bug, not a closed store")).getCode());
    assertEquals(Status.Code.INVALID_ARGUMENT,
        GrpcStatuses.toStatus(new IllegalArgumentException("bad")).getCode());
    Status internal = GrpcStatuses.toStatus(new NullPointerException("boom"));
    assertEquals(Status.Code.INTERNAL, internal.getCode());
    assertTrue(internal.getDescription().contains("boom"));
    assertEquals(Status.Code.INTERNAL,
        GrpcStatuses.toStatus(new CodecException("corrupt value")).getCode());
    assertEquals(Status.Code.RESOURCE_EXHAUSTED,
        GrpcStatuses.toStatus(Status.RESOURCE_EXHAUSTED.asRuntimeException()).getCode());
  }

  @Test
  void aFullDiskIsResourceExhaustedWithTheDirectoryAndTheSpaceNeededWhereverItSurfaces() {
    // A WAL sync, a flush or a compaction refused for lack of space reaches the server as the
    // store's own exception (writes through the facade arrive as OmException RESOURCE_EXHAUSTED).
    StoreOutOfSpaceException full = new StoreOutOfSpaceException(
        "IOError(NoSpace): store om: WAL sync failed", Path.of("/data/om"), 64L << 20, 0,
        new RuntimeException("No space left on device"));
    Status s = GrpcStatuses.toStatus(full);
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, s.getCode());
    assertEquals(full.getMessage(), s.getDescription());
    assertTrue(s.getDescription().contains("/data/om") && s.getDescription().contains("67108864"),
        s.getDescription());
  }

  @Test
  void aCallOnAClosedStoreIsUnavailableAndNotLogged(@TempDir Path dir) {
    DBStore store = TestStores.open(dir);
    Table<String, String> strings = store.getTable(TestStores.STRINGS);
    store.close();
    try (LogCapture log = LogCapture.of(UnaryCalls.class)) {
      Recorder<String> call = new Recorder<>();
      UnaryCalls.run(call, () -> strings.get("k"));
      Status s = Status.fromThrowable(call.error);
      assertEquals(Status.Code.UNAVAILABLE, s.getCode(), s.toString());
      assertTrue(s.getDescription().contains("retry"), s.getDescription());
      assertEquals(List.of(), log.thrownClasses(Level.WARN), "not a bug: nothing logged");
    }
  }

  @Test
  void aPlantedIllegalStateIsInternalAndLoggedOnceWithItsStack() {
    try (LogCapture log = LogCapture.of(UnaryCalls.class)) {
      Recorder<String> call = new Recorder<>();
      UnaryCalls.run(call, () -> {
        throw new IllegalStateException("planted: an iterator used after its owner closed it");
      });
      Status s = Status.fromThrowable(call.error);
      assertEquals(Status.Code.INTERNAL, s.getCode(), s.toString());
      assertTrue(s.getDescription().contains("IllegalStateException"), s.getDescription());
      assertEquals(List.of(IllegalStateException.class.getName()),
          log.thrownClasses(Level.WARN), "logged once, with its stack");
    }
  }

  /** A call's observer that records how it ended. */
  private static final class Recorder<T> implements StreamObserver<T> {
    Throwable error;

    @Override
    public void onNext(T value) {
    }

    @Override
    public void onError(Throwable t) {
      error = t;
    }

    @Override
    public void onCompleted() {
    }
  }
}
