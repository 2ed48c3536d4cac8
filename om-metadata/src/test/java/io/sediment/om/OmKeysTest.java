package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.codec.Bytes;
import io.sediment.om.core.OmKeys;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The key formats of {@link OmKeys}: fixed-width hex ids, so that an FSO directory's children are
 * one contiguous range no sibling can share, ids sort numerically, and id suffixes parse back.
 */
class OmKeysTest {

  @Test
  void idsAreSixteenLowercaseHexDigitsAndRoundTrip() {
    assertEquals("0000000000000400", OmKeys.id(0x400));
    assertEquals("0000000000000000", OmKeys.id(0));
    assertEquals("ffffffffffffffff", OmKeys.id(-1));
    for (long id : new long[] {0, 1, 0x400, 0x4000, Long.MAX_VALUE, Long.MIN_VALUE, -1}) {
      assertEquals(16, OmKeys.id(id).length());
      assertEquals(id, OmKeys.parseId(OmKeys.id(id)));
    }
    assertThrows(IllegalArgumentException.class, () -> OmKeys.parseId("400"));
    assertThrows(IllegalArgumentException.class, () -> OmKeys.parseId("000000000000040G"));
    assertThrows(IllegalArgumentException.class, () -> OmKeys.parseId("000000000000040A"));
  }

  @Test
  void idsSortAsUnsignedNumbers() {
    long[] ids = {0, 1, 9, 10, 15, 16, 255, 256, 0x400, 0x4000, 0x40000, Long.MAX_VALUE,
        Long.MIN_VALUE, -2, -1};
    for (int i = 1; i < ids.length; i++) {
      assertTrue(Bytes.compare(OmKeys.utf8(OmKeys.id(ids[i - 1])), OmKeys.utf8(OmKeys.id(ids[i]))) < 0,
          ids[i - 1] + " should sort before " + ids[i]);
    }
  }

  @Test
  void childrenOfDirectory0400NeverMatchTheChildrenOf04000() {
    String children = OmKeys.childPrefix(1, 2, 0x400);
    assertTrue(children.endsWith("/0000000000000400/"));
    List<String> siblings = new ArrayList<>();
    for (long other : new long[] {0x4000, 0x40000, 0x4001, 0x40, 0x401, 0x4000000000000L}) {
      siblings.add(OmKeys.pathKey(1, 2, other, "x"));
      siblings.add(OmKeys.childPrefix(1, 2, other));
    }
    for (String s : siblings) {
      assertFalse(s.startsWith(children), s + " must not be inside " + children);
      assertFalse(Bytes.startsWith(OmKeys.utf8(s), OmKeys.utf8(children)));
    }
    assertTrue(OmKeys.pathKey(1, 2, 0x400, "child").startsWith(children));
    // A deeper entry of the child's own subtree is under the child's id, not its parent's.
    assertFalse(OmKeys.pathKey(1, 2, 0x4000, "grandchild").startsWith(children));
  }

  @Test
  void openAndDeletedKeysCarryTheirIdAsAFixedWidthSuffix() {
    String open = OmKeys.openKey("vol", "buck", "a/b/0000000000000007", 0x2a);
    assertEquals("/vol/buck/a/b/0000000000000007/000000000000002a", open);
    assertEquals(0x2a, OmKeys.suffixId(open));
    assertEquals("/vol/buck/a/b/0000000000000007", OmKeys.withoutSuffixId(open));
    String deleted = OmKeys.deletedKey("vol", "buck", "k", 7);
    assertEquals("/vol/buck/k/0000000000000007", deleted);
    assertEquals(7, OmKeys.suffixId(deleted));
    assertThrows(IllegalArgumentException.class, () -> OmKeys.suffixId("/vol/buck/k"));
    assertEquals("/0000000000000001/0000000000000002/0000000000000003/f/0000000000000009",
        OmKeys.openFileKey(1, 2, 3, "f", 9));
  }

  @Test
  void fsoKeysYieldTheirIdsAndName() {
    String open = OmKeys.openFileKey(3, 0x40, 0x400, "a b/c", 0x4000);
    assertEquals(3, OmKeys.fsoVolumeIdOf(open));
    assertEquals(0x40, OmKeys.fsoBucketIdOf(open));
    assertEquals(0x400, OmKeys.fsoParentIdOf(open));
    assertEquals("a b/c", OmKeys.fsoNameOfSuffixed(open));
    assertEquals(0x400, OmKeys.fsoParentIdOf(OmKeys.pathKey(3, 0x40, 0x400, "x")));
    for (String bad : new String[] {"/vol/bucket/key/0000000000004000",
        OmKeys.fsoBucketPrefix(3, 0x40), OmKeys.fsoBucketPrefix(3, 0x40) + "0400/x/1"}) {
      assertThrows(IllegalArgumentException.class, () -> OmKeys.fsoNameOfSuffixed(bad));
    }
  }

  @Test
  void bucketPrefixCoversExactlyOneBucket() {
    String prefix = OmKeys.bucketPrefix("vol", "buck");
    assertTrue(OmKeys.objectKey("vol", "buck", "k").startsWith(prefix));
    assertFalse(OmKeys.objectKey("vol", "buck2", "k").startsWith(prefix));
    assertFalse(OmKeys.objectKey("vol", "buc", "k/x").startsWith(prefix));
    assertFalse(OmKeys.bucketKey("vol", "buck").startsWith(prefix));
  }
}
