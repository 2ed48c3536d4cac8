package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.sediment.db.codec.CodecException;
import io.sediment.om.OmException;
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
}
