package io.sediment.om;

import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.sediment.db.codec.CodecException;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmKeys;
import io.sediment.om.listing.KeyRowView;
import io.sediment.om.listing.ListObjectsV1Request;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ListObjectsV2 hands its keys on as stored: the encodings are the rows' bytes, they parse to
 * what a lookup returns, and a row that is not a message fails the page instead of being passed
 * on.
 */
class StoredKeyListingTest {

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withDefaults();

  @Test
  void theEncodedKeysAreTheStoredRowsAndParseToWhatALookupReturns() {
    OmMetadataStore om = omStore.store();
    om.createVolume("vol", "alice");
    om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
    List<KeyInfo> committed = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      committed.add(put(om, "vol", "bkt", "k" + i, 100 + i));
    }
    ListObjectsV2Result page = om.listObjectsV2(ListObjectsV2Request.of("vol", "bkt"));
    assertEquals(committed, page.contents());
    for (int i = 0; i < 5; i++) {
      assertEquals(om.lookupKey("vol", "bkt", "k" + i), page.contents().get(i));
      assertEquals(committed.get(i).toByteString(), page.encodedContents().get(i));
    }
  }

  @Test
  void aRowThatIsNotAMessageFailsThePage() {
    OmMetadataStore om = omStore.store();
    om.createVolume("vol", "alice");
    om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
    put(om, "vol", "bkt", "a", 1);
    om.dbStore().getTable(OmDBDefinition.KEY_TABLE.name()).put(
        (OmKeys.bucketPrefix("vol", "bkt") + "b").getBytes(StandardCharsets.UTF_8),
        new byte[] {0x0A, (byte) 0xFF, 0x01});
    for (KeyRowView view : KeyRowView.values()) {
      CodecException e = assertThrows(CodecException.class,
          () -> om.listObjectsV2(ListObjectsV2Request.of("vol", "bkt").withView(view)));
      assertTrue(e.getMessage().contains("KeyInfo"), view + ": " + e.getMessage());
      CodecException v1 = assertThrows(CodecException.class,
          () -> om.listObjectsV1(ListObjectsV1Request.of("vol", "bkt").withView(view)));
      assertTrue(v1.getMessage().contains("KeyInfo"), view + ": " + v1.getMessage());
      assertEquals(1, om.listObjectsV2(ListObjectsV2Request.of("vol", "bkt").withMaxKeys(1)
          .withView(view)).contents().size(), "the page before the bad row still lists");
    }
  }

  @Test
  void theBasicViewCutsEachRowAsItIsRead() throws Exception {
    OmMetadataStore om = omStore.store();
    om.createVolume("vol", "alice");
    om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
    KeyInfo row = put(om, "vol", "bkt", "k", 7);
    ByteString basic = om.listObjectsV2(ListObjectsV2Request.of("vol", "bkt")
        .withView(KeyRowView.BASIC)).encodedContents().get(0);
    assertEquals(KeyRowView.BASIC.of(row.toByteArray()), basic);
    KeyInfo parsed = KeyInfo.parseFrom(basic);
    assertEquals("k", parsed.getKeyName());
    assertEquals(7, parsed.getDataSize());
    assertEquals(row.getModificationTime(), parsed.getModificationTime());
    assertEquals(row.getOwner(), parsed.getOwner());
    assertTrue(parsed.getObjectId() == 0 && row.getObjectId() != 0,
        "the basic view leaves the object id out");
    assertEquals(basic, om.listObjectsV1(ListObjectsV1Request.of("vol", "bkt")
        .withView(KeyRowView.BASIC)).encodedContents().get(0));
  }

  @Test
  void theColumnsViewListsTheBasicViewsKeysPageByPage() {
    OmMetadataStore om = omStore.store();
    om.createVolume("vol", "alice");
    om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
    for (int i = 0; i < 25; i++) {
      put(om, "vol", "bkt", (i % 3 == 0 ? "dir/" : "") + "k" + i, i);
    }
    ListObjectsV2Request first = ListObjectsV2Request.of("vol", "bkt").withMaxKeys(7)
        .withDelimiter("/");
    String token = null;
    int pages = 0;
    do {
      ListObjectsV2Result basic = om.listObjectsV2(first.withContinuationToken(token)
          .withView(KeyRowView.BASIC));
      ListObjectsV2Result columns = om.listObjectsV2(first.withContinuationToken(token)
          .withView(KeyRowView.COLUMNS));
      assertTrue(columns.encodedContents().isEmpty());
      assertEquals(basic.contents(), columns.columns().keyInfos());
      assertEquals(basic.contents(), columns.contents());
      assertEquals(basic.commonPrefixes(), columns.commonPrefixes());
      assertEquals(basic.keyCount(), columns.keyCount());
      assertEquals(basic.truncated(), columns.truncated());
      assertThrows(IllegalStateException.class, basic::columns);
      token = basic.nextContinuationToken();
      pages++;
    } while (token != null);
    assertEquals(3, pages);
    assertEquals(List.of("dir/"), om.listObjectsV1(ListObjectsV1Request.of("vol", "bkt")
        .withDelimiter("/").withView(KeyRowView.COLUMNS)).commonPrefixes());
    assertEquals(om.listObjectsV1(ListObjectsV1Request.of("vol", "bkt")
            .withView(KeyRowView.BASIC)).contents(),
        om.listObjectsV1(ListObjectsV1Request.of("vol", "bkt")
            .withView(KeyRowView.COLUMNS)).columns().keyInfos());
  }
}
