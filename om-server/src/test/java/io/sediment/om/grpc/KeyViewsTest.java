package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.listing.KeyRowView;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.KeyView;
import org.junit.jupiter.api.Test;

/**
 * The wire's key views mapped to the listing's {@link KeyRowView}s, and the model of the basic
 * view that {@code StoredKeyWireTest} holds its pages to (the cut itself: {@code KeyRowViewTest}).
 */
class KeyViewsTest {

  @Test
  void eachWireViewMapsToItsRowViewAndAnUnknownViewIsRefused() {
    assertEquals(KeyRowView.FULL, KeyViews.rows(KeyView.KEY_VIEW_FULL, 0));
    assertEquals(KeyRowView.BASIC, KeyViews.rows(KeyView.KEY_VIEW_BASIC, 1));
    assertEquals(KeyRowView.COLUMNS, KeyViews.rows(KeyView.KEY_VIEW_COLUMNS, 2));
    KeyInfo row = KeyInfo.newBuilder().setVolumeName("v").setBucketName("b").setKeyName("k")
        .setDataSize(3).setOwner("o").putMetadata("color", "red").build();
    assertEquals(row.toByteString(), KeyViews.rows(KeyView.KEY_VIEW_FULL, 0).of(row.toByteArray()));
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> KeyViews.rows(KeyView.UNRECOGNIZED, 9));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertEquals("Unknown key view: 9", e.getStatus().getDescription());
  }

  /** What the basic view keeps of {@code row}: the model the wire test holds its pages to too. */
  static KeyInfo model(KeyInfo row) {
    KeyInfo.Builder b = KeyInfo.newBuilder().setKeyName(row.getKeyName())
        .setDataSize(row.getDataSize()).setCreationTime(row.getCreationTime())
        .setModificationTime(row.getModificationTime()).setOwner(row.getOwner());
    if (row.hasReplicationConfig()) {
      b.setReplicationConfig(row.getReplicationConfig());
    }
    if (row.containsMetadata("ETag")) {
      b.putMetadata("ETag", row.getMetadataOrThrow("ETag"));
    }
    return b.build();
  }
}
