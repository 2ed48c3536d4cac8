package io.sediment.om.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.proto.om.AclIdentityType;
import io.sediment.proto.om.AclRight;
import io.sediment.proto.om.AclScope;
import io.sediment.proto.om.OmAcl;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The text form of ACL entries ({@code TYPE:NAME:RIGHTS[SCOPE]}): every letter maps to its right,
 * valid entries round-trip, and malformed text is refused with a message naming what is wrong.
 */
class AclTextTest {

  @Test
  void parsesTheForms() {
    assertEquals(acl(AclIdentityType.ACL_USER, "alice", AclScope.ACL_ACCESS,
        AclRight.ACL_READ, AclRight.ACL_WRITE), AclText.parse("user:alice:rw"));
    assertEquals(acl(AclIdentityType.ACL_GROUP, "dev", AclScope.ACL_DEFAULT,
        AclRight.ACL_READ, AclRight.ACL_WRITE, AclRight.ACL_LIST),
        AclText.parse("group:dev:rwl[DEFAULT]"));
    assertEquals(acl(AclIdentityType.ACL_WORLD, "", AclScope.ACL_ACCESS, AclRight.ACL_READ),
        AclText.parse("world::r"));
    assertEquals(acl(AclIdentityType.ACL_ANONYMOUS, "", AclScope.ACL_ACCESS, AclRight.ACL_READ),
        AclText.parse("anonymous::r"));
    assertEquals(acl(AclIdentityType.ACL_USER, "bob", AclScope.ACL_ACCESS, AclRight.ACL_ALL),
        AclText.parse(" USER:bob:a[access] "));
  }

  @ParameterizedTest
  @CsvSource({"r,ACL_READ", "w,ACL_WRITE", "c,ACL_CREATE", "l,ACL_LIST", "d,ACL_DELETE",
      "x,ACL_READ_ACL", "y,ACL_WRITE_ACL", "a,ACL_ALL", "n,ACL_NONE"})
  void eachLetterIsItsRight(String letter, AclRight right) {
    OmAcl a = AclText.parse("user:u:" + letter);
    assertEquals(List.of(right), AclRights.rightsOf(a.getRights()));
    assertEquals("user:u:" + letter, AclText.format(a));
  }

  @Test
  void randomValidEntriesRoundTrip() {
    Random r = new Random(18);
    AclIdentityType[] types = {AclIdentityType.ACL_USER, AclIdentityType.ACL_GROUP,
        AclIdentityType.ACL_WORLD, AclIdentityType.ACL_ANONYMOUS};
    for (int i = 0; i < 2_000; i++) {
      AclIdentityType type = types[r.nextInt(types.length)];
      boolean named = type == AclIdentityType.ACL_USER || type == AclIdentityType.ACL_GROUP;
      int bits = (r.nextInt(1 << 9) << 1) | (1 << (1 + r.nextInt(9)));
      OmAcl a = OmAcl.newBuilder().setType(type).setName(named ? "n" + r.nextInt(50) + "@x.y" : "")
          .setRights(bits).setScope(r.nextBoolean() ? AclScope.ACL_ACCESS : AclScope.ACL_DEFAULT)
          .build();
      String text = AclText.format(a);
      assertEquals(a, AclText.parse(text), text);
      assertEquals(text, AclText.format(AclText.parse(text)));
    }
  }

  @Test
  void aListIsCommaSeparated() {
    assertEquals(List.of(AclText.parse("user:a:r"), AclText.parse("group:g:w[DEFAULT]")),
        AclText.parseList("user:a:r,group:g:w[DEFAULT]"));
    assertMessage(() -> AclText.parseList("user:a:r,,user:b:r"), "empty entry");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "user", "user:alice", "user:alice:rw:extra", "admin:alice:r",
      "user::r", "group::r", "world:bob:r", "anonymous:x:r", "user:alice:", "user:alice:rq",
      "user:alice:r[OTHER]", "user:alice:r]", "user:alice:R"})
  void badFormsAreRefusedWithTheForm(String text) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> AclText.parse(text));
    assertTrue(e.getMessage().startsWith("Bad ACL '" + text + "': "), e.getMessage());
    assertTrue(e.getMessage().contains("TYPE:NAME:RIGHTS[SCOPE]"), e.getMessage());
  }

  @Test
  void messagesSayWhatIsWrong() {
    assertMessage(() -> AclText.parse("user:alice:rq"), "unknown right 'q'");
    assertMessage(() -> AclText.parse("world:bob:r"), "world entries take no name");
    assertMessage(() -> AclText.parse("user::r"), "user entries need a name");
    assertMessage(() -> AclText.parse("user:alice:"), "no rights given");
    assertMessage(() -> AclText.parse("admin:alice:r"), "not 'admin'");
    assertMessage(() -> AclText.parse("user:alice:r[OTHER]"), "[ACCESS] or [DEFAULT]");
  }

  private static void assertMessage(org.junit.jupiter.api.function.Executable call, String part) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertTrue(e.getMessage().contains(part), e.getMessage());
  }

  static OmAcl acl(AclIdentityType type, String name, AclScope scope, AclRight... rights) {
    return OmAcl.newBuilder().setType(type).setName(name).setScope(scope)
        .setRights(AclRights.bitsOf(List.of(rights))).build();
  }
}
