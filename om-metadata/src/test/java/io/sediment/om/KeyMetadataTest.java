package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmException;
import io.sediment.om.core.OpenKeySession;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * User metadata given with a commit (keys and FSO files): recorded on the committed row; refused
 * metadata (empty or long names, control characters, more than 2 KB in all) is INVALID_ARGUMENT
 * and changes nothing: the key stays open and uncommitted.
 */
class KeyMetadataTest {

  @TempDir
  Path dir;

  @Test
  void aCommitRecordsMetadataOnKeysAndFiles() throws Exception {
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      om.createVolume("vol", "alice");
      om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
      om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      OpenKeySession s = om.openKey("vol", "obs", "k", null);
      KeyInfo k = om.commitKey("vol", "obs", "k", s.clientId(), 7, Map.of("a", "1", "b", ""));
      assertEquals(Map.of("a", "1", "b", ""), k.getMetadataMap());
      assertEquals(k, om.lookupKey("vol", "obs", "k"));

      OpenKeySession f = om.fso().createFile("vol", "fso", "d/f", null);
      om.fso().commitFile("vol", "fso", "d/f", f.clientId(), 3, Map.of("x", "y"));
      assertEquals(Map.of("x", "y"), om.fso().lookupFile("vol", "fso", "d/f").getMetadataMap());
    }
  }

  @Test
  void refusedMetadataChangesNothing() throws Exception {
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      om.createVolume("vol", "alice");
      om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
      OpenKeySession s = om.openKey("vol", "obs", "k", null);
      Map<String, String> tooBig = new LinkedHashMap<>();
      tooBig.put("n", "v".repeat(2048));
      for (Map<String, String> bad : java.util.List.of(Map.of("", "v"),
          Map.of("n".repeat(129), "v"), Map.of("a\nb", "v"), tooBig)) {
        OmException e = assertThrows(OmException.class,
            () -> om.commitKey("vol", "obs", "k", s.clientId(), 1, bad));
        assertEquals(OmException.Code.INVALID_ARGUMENT, e.code());
        assertTrue(e.getMessage().contains("Metadata"), e.getMessage());
      }
      assertThrows(OmException.class, () -> om.lookupKey("vol", "obs", "k"));
      Map<String, String> atLimit = Map.of("n", "v".repeat(2047));
      assertEquals(atLimit, om.commitKey("vol", "obs", "k", s.clientId(), 1, atLimit)
          .getMetadataMap());
    }
  }
}
