package io.sediment.om.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The forms of credentials: token text, certificate subjects, the groups file. */
class CredentialFormsTest {

  @TempDir
  Path dir;

  @Test
  void issuedTokensParseBackAndMatchOnlyTheirOwnHash() {
    BearerToken.Issued issued = BearerToken.issue();
    BearerToken t = BearerToken.parse(issued.token());
    assertNotNull(t);
    assertEquals(issued.id(), t.id());
    assertTrue(t.matches(issued.salt(), issued.hash()));
    byte[] otherSalt = issued.salt();
    otherSalt[0] ^= 1;
    assertFalse(t.matches(otherSalt, issued.hash()));
    assertFalse(issued.toString().contains(issued.token().substring(30)));
    assertFalse(t.toString().contains(issued.token().substring(30)));
    String secret = issued.token().substring(issued.token().indexOf('_', 4) + 1);
    for (String bad : new String[] {null, "", "sdt_", "sdt_" + issued.id(),
        "sdt_" + issued.id() + "_", "SDT_" + issued.id() + "_" + secret,
        "sdt_" + issued.id().toUpperCase() + "_" + secret,
        "sdt_" + issued.id().substring(2) + "_" + secret,
        "sdt_" + issued.id() + "_" + secret.substring(1),
        "sdt_" + issued.id() + "_" + secret + "AA",
        "sdt_" + issued.id() + "_" + secret.replace(secret.charAt(0), '*')}) {
      assertNull(BearerToken.parse(bad), bad);
    }
  }

  @Test
  void aCertificateSubjectMapsToItsMostSpecificCommonNameOrTheWholeSubject() {
    assertEquals("alice", CertificatePrincipal.nameOf(new X500Principal("CN=alice, O=Example")));
    assertEquals("alice", CertificatePrincipal.nameOf(
        new X500Principal("CN=alice, OU=People, CN=Example Root")));
    assertEquals("O=Example,C=DE", CertificatePrincipal.nameOf(
        new X500Principal("O=Example, C=DE")));
  }

  @Test
  void theGroupsFileMapsUsersAndRefusesBadLinesByFileAndLine() throws IOException {
    Path f = dir.resolve("groups");
    Files.writeString(f, "# who is in which group\n\nalice: ops, dev  # trailing comment\n"
        + "bob:\n  carol :ops\n");
    GroupMapping m = GroupMapping.load(f);
    assertEquals(Set.of("ops", "dev"), m.groupsOf("alice"));
    assertEquals(Set.of(), m.groupsOf("bob"));
    assertEquals(Set.of("ops"), m.groupsOf("carol"));
    assertEquals(Set.of(), m.groupsOf("dave"));
    assertEquals(new Principal("alice", Set.of("ops", "dev")), m.principal("alice"));

    for (String[] bad : new String[][] {
        {"alice: ops\nno colon here\n", ":2:"},
        {": ops\n", ":1:"},
        {"alice: ops,,dev\n", ":1:"},
        {"alice: ops\nalice: dev\n", ":2:"},
        {"al ice: ops\n", ":1:"},
        {"alice: o ps\n", ":1:"}}) {
      Files.writeString(f, bad[0]);
      IOException e = assertThrows(IOException.class, () -> GroupMapping.load(f));
      assertTrue(e.getMessage().startsWith(f + bad[1]), e.getMessage());
    }
  }
}
