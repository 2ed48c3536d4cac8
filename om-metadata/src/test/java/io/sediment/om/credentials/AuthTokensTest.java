package io.sediment.om.credentials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.AuthToken;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Token rows: create, revoke, read and list them; bad input changes nothing. */
class AuthTokensTest {

  private final MutableClock clock = new MutableClock(1_000_000L);

  @RegisterExtension
  final OmStoreExtension store =
      OmStoreExtension.withOptions(() -> OmStoreOptions.defaults().withClock(clock));

  private static byte[] bytes(int n, int fill) {
    byte[] b = new byte[n];
    Arrays.fill(b, (byte) fill);
    return b;
  }

  @Test
  void createStampsTimesAndRevokeSurvivesReopen() {
    AuthTokens t = store.store().authTokens();
    AuthToken row = t.create("0123abcd", "alice", bytes(16, 1), bytes(32, 2), Duration.ofMinutes(5));
    assertEquals(1_000_000L, row.getCreatedMillis());
    assertEquals(1_000_000L + 300_000L, row.getExpiresMillis());
    assertEquals(0, t.create("0123abce", "bob", bytes(16, 1), bytes(32, 2), null)
        .getExpiresMillis());
    clock.advance(Duration.ofSeconds(1));
    AuthToken revoked = t.revoke("0123abcd");
    assertTrue(revoked.getRevoked());
    assertEquals(1_001_000L, revoked.getRevokedMillis());
    // Revoking again changes nothing.
    clock.advance(Duration.ofSeconds(1));
    assertEquals(revoked, t.revoke("0123abcd"));
    OmMetadataStore reopened = store.reopen();
    assertEquals(revoked, reopened.authTokens().get("0123abcd"));
    assertNull(reopened.authTokens().get("ffffffff"));
    assertNull(reopened.authTokens().get("not hex"));
  }

  @Test
  void listPagesInIdOrder() {
    AuthTokens t = store.store().authTokens();
    for (String id : List.of("cccccccc", "aaaaaaaa", "bbbbbbbb")) {
      t.create(id, "p-" + id, bytes(16, 1), bytes(32, 2), null);
    }
    assertEquals(List.of("aaaaaaaa", "bbbbbbbb"), ids(t.list("", 2)));
    assertEquals(List.of("cccccccc"), ids(t.list("bbbbbbbb", 2)));
    assertEquals(List.of("bbbbbbbb", "cccccccc"), ids(t.list("ab", 5)));
    assertEquals(List.of(), ids(t.list("cccccccc", 5)));
  }

  private static List<String> ids(List<AuthToken> rows) {
    return rows.stream().map(AuthToken::getId).toList();
  }

  @Test
  void badInputChangesNothing() {
    AuthTokens t = store.store().authTokens();
    t.create("0123abcd", "alice", bytes(16, 1), bytes(32, 2), null);
    AuthToken before = t.get("0123abcd");
    assertCode(OmException.Code.ALREADY_EXISTS,
        () -> t.create("0123abcd", "mallory", bytes(16, 1), bytes(32, 3), null));
    assertCode(OmException.Code.INVALID_ARGUMENT,
        () -> t.create("ABC", "alice", bytes(16, 1), bytes(32, 2), null));
    assertCode(OmException.Code.INVALID_ARGUMENT,
        () -> t.create("0123abcf", "", bytes(16, 1), bytes(32, 2), null));
    assertCode(OmException.Code.INVALID_ARGUMENT,
        () -> t.create("0123abcf", "alice", bytes(8, 1), bytes(32, 2), null));
    assertCode(OmException.Code.INVALID_ARGUMENT,
        () -> t.create("0123abcf", "alice", bytes(16, 1), bytes(31, 2), null));
    assertCode(OmException.Code.INVALID_ARGUMENT,
        () -> t.create("0123abcf", "alice", bytes(16, 1), bytes(32, 2), Duration.ZERO));
    assertCode(OmException.Code.NOT_FOUND, () -> t.revoke("0123abcf"));
    assertEquals(before, t.get("0123abcd"));
    assertEquals(List.of("0123abcd"), ids(t.list("", 10)));
  }

  private static void assertCode(OmException.Code code, Runnable call) {
    assertEquals(code, assertThrows(OmException.class, call::run).code());
  }
}
