package io.sediment.om.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** om-metadata embedded without the server: the README's example, run as a test. */
class EmbeddedOmExample {

  @Test
  void embedTheOmStore(@TempDir Path dir) {
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      om.createVolume("vol", "alice");
      om.createBucket("vol", "photos", BucketLayout.OBJECT_STORE, "alice", 0); // 0: no quota

      // A key is written in two steps: open (a client id), then commit (its size).
      for (String key : List.of("2024/a.jpg", "2024/b.jpg", "2025/c.jpg", "2025/d.jpg",
          "2025/e.jpg")) {
        OpenKeySession session = om.openKey("vol", "photos", key, null);
        om.commitKey("vol", "photos", key, session.clientId(), 1024);
      }
      assertEquals(1024, om.lookupKey("vol", "photos", "2025/c.jpg").getDataSize());

      // Page through the keys, two at a time: each page's token asks for the next one.
      List<List<String>> pages = new ArrayList<>();
      String token = null;
      do {
        ListPage<KeyInfo> page = om.listKeys("vol", "photos", null, null, 2, token);
        pages.add(page.items().stream().map(KeyInfo::getKeyName).toList());
        token = page.nextToken();
      } while (token != null);
      assertEquals(List.of(List.of("2024/a.jpg", "2024/b.jpg"),
          List.of("2025/c.jpg", "2025/d.jpg"), List.of("2025/e.jpg")), pages);

      // S3 ListObjectsV2: a delimiter rolls keys up into common prefixes.
      ListObjectsV2Result folders = om.listObjectsV2(
          ListObjectsV2Request.of("vol", "photos").withDelimiter("/"));
      assertEquals(List.of("2024/", "2025/"), folders.commonPrefixes());
      assertFalse(folders.truncated());

      // The other feature areas are objects: snapshots(), multipart(), fso(), openFiles(),
      // lifecycle(). A snapshot keeps the bucket's keys as they were.
      om.snapshots().create("vol", "photos", "before-cleanup");
      om.deleteKey("vol", "photos", "2024/a.jpg");
      assertEquals(1024, om.snapshots()
          .lookupKey("vol", "photos", "before-cleanup", "2024/a.jpg").getDataSize());

      // A FILE_SYSTEM_OPTIMIZED bucket holds directories and files.
      om.createBucket("vol", "docs", BucketLayout.FILE_SYSTEM_OPTIMIZED, "alice", 0);
      om.fso().createDirectory("vol", "docs", "reports/2025");
      OpenKeySession file = om.fso().createFile("vol", "docs", "reports/2025/q1.pdf", null);
      om.fso().commitFile("vol", "docs", "reports/2025/q1.pdf", file.clientId(), 2048);
      assertEquals(2048, om.fso().lookupFile("vol", "docs", "reports/2025/q1.pdf").getDataSize());

      // A rejected call throws OmException with a code, and changes nothing.
      OmException e = assertThrows(OmException.class,
          () -> om.lookupKey("vol", "photos", "2026/missing.jpg"));
      assertEquals(OmException.Code.NOT_FOUND, e.code());
    }
  }
}
