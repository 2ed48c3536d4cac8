package io.sediment.om.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmException;
import io.sediment.proto.om.AclIdentityType;
import io.sediment.proto.om.AclRight;
import io.sediment.proto.om.OmAcl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Lists of ACL entries: canonical form (merged per identity and scope, ALL for all seven rights,
 * empty entries dropped, one order whatever the input order), add as a union, remove as clearing
 * rights, and the checks an entry must pass.
 */
class AclEntriesTest {

  private static List<OmAcl> parse(String... texts) {
    return java.util.Arrays.stream(texts).map(AclText::parse).toList();
  }

  private static List<String> text(List<OmAcl> acls) {
    return AclText.formatAll(acls);
  }

  @Test
  void canonicalMergesSortsAndDropsEmptyEntries() {
    assertEquals(List.of("user:alice:rw", "user:bob:a", "group:dev:l", "world::r",
            "user:alice:r[DEFAULT]"),
        text(AclEntries.canonical(parse("user:alice:r[DEFAULT]", "world::r", "user:alice:r",
            "group:dev:l", "user:bob:rwcldxy", "user:alice:w", "user:carol:n"))));
    assertEquals(List.of("user:a:a"), text(AclEntries.canonical(parse("user:a:rn", "user:a:a"))));
  }

  @Test
  void canonicalIsIndependentOfOrderAndIdempotent() {
    Random r = new Random(7);
    String[] pool = {"user:a:r", "user:a:w", "user:b:a", "group:g:xy", "world::l", "anonymous::r",
        "user:a:d[DEFAULT]", "group:g:rwcldx", "group:g:y", "user:c:n"};
    for (int i = 0; i < 500; i++) {
      List<OmAcl> list = new ArrayList<>();
      for (int j = r.nextInt(8); j >= 0; j--) {
        list.add(AclText.parse(pool[r.nextInt(pool.length)]));
      }
      List<OmAcl> c = AclEntries.canonical(list);
      List<OmAcl> shuffled = new ArrayList<>(list);
      Collections.shuffle(shuffled, r);
      assertEquals(c, AclEntries.canonical(shuffled));
      assertEquals(c, AclEntries.canonical(c));
    }
  }

  @Test
  void addIsAUnionPerIdentityAndScope() {
    List<OmAcl> current = parse("user:alice:r", "group:dev:r[DEFAULT]");
    assertEquals(List.of("user:alice:rwl", "group:dev:w", "group:dev:r[DEFAULT]"),
        text(AclEntries.add(current, parse("user:alice:wl", "group:dev:w"))));
    assertEquals(List.of("user:alice:a", "group:dev:r[DEFAULT]"),
        text(AclEntries.add(current, parse("user:alice:wcldxy"))));
  }

  @Test
  void removeClearsRightsAndDropsEmptiedEntries() {
    List<OmAcl> current = parse("user:alice:a", "user:bob:rw", "group:dev:r[DEFAULT]");
    assertEquals(List.of("user:alice:wcldxy", "user:bob:w", "group:dev:r[DEFAULT]"),
        text(AclEntries.remove(current, parse("user:alice:r", "user:bob:r"))));
    assertEquals(List.of("user:bob:rw", "group:dev:r[DEFAULT]"),
        text(AclEntries.remove(current, parse("user:alice:a", "group:dev:r"))));
    assertEquals(List.of("user:alice:a", "user:bob:rw"),
        text(AclEntries.remove(current, parse("group:dev:a[DEFAULT]", "user:nobody:r"))));
  }

  @Test
  void grantsReadsAllAsEveryRight() {
    int all = AclRights.ALL;
    for (AclRight r : AclRights.SINGLE) {
      assertTrue(AclRights.grants(all, r));
    }
    assertTrue(AclRights.grants(all, AclRight.ACL_ALL));
    assertFalse(AclRights.grants(all, AclRight.ACL_NONE));
    int rw = AclText.parse("user:u:rw").getRights();
    assertTrue(AclRights.grants(rw, AclRight.ACL_WRITE));
    assertFalse(AclRights.grants(rw, AclRight.ACL_LIST));
    assertFalse(AclRights.grants(rw, AclRight.ACL_ALL));
  }

  @Test
  void checkRefusesBadEntries() {
    assertInvalid(OmAcl.newBuilder().setType(AclIdentityType.ACL_USER).setRights(2).build(),
        true, "need a name");
    assertInvalid(OmAcl.newBuilder().setType(AclIdentityType.ACL_WORLD).setName("x").setRights(2)
        .build(), true, "take no name");
    assertInvalid(OmAcl.newBuilder().setName("x").setRights(2).build(), true, "identity type");
    assertInvalid(OmAcl.newBuilder().setType(AclIdentityType.ACL_USER).setName("a b")
        .setRights(2).build(), true, "white space");
    assertInvalid(OmAcl.newBuilder().setType(AclIdentityType.ACL_USER).setName("a")
        .setRights(1 << 12).build(), true, "unknown right bits 0x1000");
    assertInvalid(OmAcl.newBuilder().setType(AclIdentityType.ACL_USER).setName("a")
        .setRights(1).build(), true, "unknown right bits 0x1");
    assertInvalid(OmAcl.newBuilder().setType(AclIdentityType.ACL_USER).setName("a")
        .setRights(2).setScopeValue(7).build(), true, "scope");
    assertInvalid(AclText.parse("user:a:r[DEFAULT]"), false, "ACCESS entries only");
    assertInvalid(OmAcl.newBuilder().setType(AclIdentityType.ACL_USER).setName("a".repeat(257))
        .setRights(2).build(), true, "longer than 256");
    AclEntries.check(AclText.parse("user:a:r[DEFAULT]"), true);
    AclEntries.check(AclText.parse("user:a:n"), false);
  }

  private static void assertInvalid(OmAcl acl, boolean defaultsAllowed, String part) {
    OmException e = assertThrows(OmException.class, () -> AclEntries.check(acl, defaultsAllowed));
    assertEquals(OmException.Code.INVALID_ARGUMENT, e.code());
    assertTrue(e.getMessage().contains(part), e.getMessage());
  }
}
