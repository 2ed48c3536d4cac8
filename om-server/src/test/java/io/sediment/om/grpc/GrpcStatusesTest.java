package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.sediment.db.codec.CodecException;
import io.sediment.db.managed.StoreOutOfSpaceException;
import io.sediment.om.core.OmException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

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
        GrpcStatuses.toStatus(new IllegalStateException("Store om is closed")).getCode());
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
}
