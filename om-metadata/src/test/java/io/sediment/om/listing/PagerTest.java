package io.sediment.om.listing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.sediment.om.core.OmException;
import io.sediment.proto.om.ListKind;
import io.sediment.proto.om.ListToken;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@link Pager} contract against a {@link TreeMap} oracle page source: page sizes 0, 1 and n,
 * exact {@code truncated} (also when the listing is an exact multiple of the page size), resume
 * after a key deleted between pages, every item once across pages, and tokens: a forged, stale,
 * old-version or other-request token is INVALID_ARGUMENT and reads nothing.
 */
class PagerTest {

  private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(
      StandardCharsets.US_ASCII);
  private static final PageRequest REQUEST =
      PageRequest.of(ListKind.LIST_KEYS, "vol", "bucket", 7, "p");

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
  private static final Duration LIFETIME = Duration.ofHours(1);

  private final Pager pager = pagerAt(CLOCK);

  private static Pager pagerAt(Clock clock) {
    return new Pager(new ListTokens(SECRET, clock, LIFETIME));
  }

  /** A page source over a TreeMap: items are the keys; counts how often it was used. */
  static final class OracleSource implements PageSource<String> {
    final NavigableMap<String, String> rows = new TreeMap<>();
    int begun;
    int opened;
    int reads;

    @Override
    public void begin(Cursor after) {
      begun++;
    }

    @Override
    public Scan<String> open(Cursor after) {
      opened++;
      Iterator<String> it = (after == null ? rows : rows.tailMap(after.lastKey(), false))
          .keySet().iterator();
      return new Scan<>() {
        String peeked;
        String last;

        @Override
        public String next() {
          String k = peeked != null ? peeked : read();
          peeked = null;
          if (k != null) {
            last = k;
          }
          return k;
        }

        private String read() {
          if (!it.hasNext()) {
            return null;
          }
          reads++;
          return it.next();
        }

        @Override
        public boolean hasMore() {
          if (peeked == null) {
            peeked = read();
          }
          return peeked != null;
        }

        @Override
        public Cursor resumeCursor() {
          return new Cursor(last, false);
        }

        @Override
        public void close() {
        }
      };
    }
  }

  private static OracleSource source(int n) {
    OracleSource s = new OracleSource();
    for (int i = 0; i < n; i++) {
      s.rows.put(String.format("k%03d", i), "v");
    }
    return s;
  }

  /** Pages through everything with tokens; asserts each page is exact. */
  private List<String> pageAll(OracleSource source, int max) {
    List<String> all = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      Page<String> page = pager.page(REQUEST, token, null, max, source);
      all.addAll(page.items());
      boolean more = source.rows.size() > all.size();
      assertEquals(more, page.truncated(), "truncated is exact after " + all.size());
      assertEquals(more, page.nextToken() != null);
      if (more) {
        assertEquals(max, page.items().size(), "only a full page is truncated");
        assertEquals(new Cursor(page.last(), false), page.next());
      }
      token = page.nextToken();
      assertTrue(++pages <= source.rows.size() + 1, "paging ends");
    } while (token != null);
    return all;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 5, 10, 11, 50})
  void pagingWithTokensListsEveryItemOnceWithExactTruncated(int max) {
    for (int n : new int[] {0, 1, 9, 10, 20}) {
      OracleSource source = source(n);
      assertEquals(new ArrayList<>(source.rows.keySet()), pageAll(source, max),
          n + " items by " + max);
    }
  }

  @Test
  void anExactMultipleOfThePageSizeEndsWithAnUntruncatedPage() {
    OracleSource source = source(10);
    Page<String> first = pager.page(REQUEST, null, null, 5, source);
    assertTrue(first.truncated());
    Page<String> second = pager.page(REQUEST, first.nextToken(), null, 5, source);
    assertEquals(List.of("k005", "k006", "k007", "k008", "k009"), second.items());
    assertFalse(second.truncated(), "nothing follows the 10th of 10");
    assertNull(second.nextToken());
    assertNull(second.next());
  }

  @Test
  void aPageSizeOfZeroChecksTheCursorAndReadsNothing() {
    OracleSource source = source(3);
    Page<String> page = pager.page(REQUEST, null, null, 0, source);
    assertEquals(List.of(), page.items());
    assertFalse(page.truncated());
    assertNull(page.nextToken());
    assertEquals(1, source.begun, "the cursor is checked as for any page");
    assertEquals(0, source.opened, "no scan is opened");
    String token = pager.page(REQUEST, null, null, 1, source).nextToken();
    assertThrows(OmException.class, () -> pager.page(REQUEST, token + "A", null, 0, source),
        "a bad token is refused also for an empty page");
  }

  @Test
  void aPageOfOneLooksOnePastIt() {
    OracleSource source = source(2);
    Page<String> page = pager.page(REQUEST, null, null, 1, source);
    assertEquals(List.of("k000"), page.items());
    assertTrue(page.truncated());
    assertEquals(2, source.reads, "one item read and one looked past, no more");
    Page<String> last = pager.page(REQUEST, page.nextToken(), null, 1, source);
    assertEquals(List.of("k001"), last.items());
    assertFalse(last.truncated());
  }

  @Test
  void startAfterIsExclusiveAndTheTokenWinsOverIt() {
    OracleSource source = source(6);
    assertEquals(List.of("k003", "k004"),
        pager.page(REQUEST, null, new Cursor("k002", false), 2, source).items());
    assertEquals(List.of("k003", "k004"),
        pager.page(REQUEST, null, new Cursor("k002x", false), 2, source).items(),
        "a start-after that does not exist resumes at the next key");
    String token = pager.page(REQUEST, null, null, 4, source).nextToken();
    assertEquals(List.of("k004", "k005"),
        pager.page(REQUEST, token, new Cursor("k000", false), 2, source).items());
  }

  @Test
  void aKeyDeletedBetweenPagesResumesAtTheNextLiveOne() {
    OracleSource source = source(6);
    Page<String> first = pager.page(REQUEST, null, null, 3, source);
    assertEquals("k002", first.last());
    source.rows.remove("k002");
    source.rows.remove("k003");
    Page<String> second = pager.page(REQUEST, first.nextToken(), null, 3, source);
    assertEquals(List.of("k004", "k005"), second.items());
    assertFalse(second.truncated());
  }

  @Test
  void readWithoutATokenPagesByCursor() {
    OracleSource source = source(4);
    Page<String> page = Pager.read(source, null, 2);
    assertTrue(page.truncated());
    assertNull(page.nextToken(), "no token without a request");
    assertEquals("k001", page.nextKey());
    assertEquals(List.of("k002", "k003"), Pager.read(source, page.next(), 2).items());
  }

  // ---- tokens ----

  private void assertRefused(String token, PageRequest request, String why) {
    OracleSource source = source(5);
    OmException e = assertThrows(OmException.class,
        () -> pager.page(request, token, null, 2, source), why);
    assertEquals(OmException.Code.INVALID_ARGUMENT, e.code(), why);
    assertTrue(e.getMessage().contains("The continuation token is invalid: "), e.getMessage());
    assertEquals(0, source.begun + source.opened + source.reads, why + ": nothing is read");
  }

  private String tokenFor(PageRequest request) {
    String token = pager.page(request, null, null, 2, source(5)).nextToken();
    assertNotNull(token);
    return token;
  }

  @Test
  void aForgedTokenIsRefused() {
    String token = tokenFor(REQUEST);
    byte[] raw = Base64.getUrlDecoder().decode(token);
    Random r = new Random(1);
    for (int i = 0; i < 50; i++) {
      byte[] bad = raw.clone();
      bad[r.nextInt(bad.length)] ^= (byte) (1 + r.nextInt(255));
      assertRefused(Base64.getUrlEncoder().withoutPadding().encodeToString(bad), REQUEST,
          "a flipped byte");
    }
    Pager other = new Pager(new ListTokens("another secret, 16+ bytes".getBytes(
        StandardCharsets.US_ASCII), CLOCK, LIFETIME));
    String foreign = other.page(REQUEST, null, null, 2, source(5)).nextToken();
    assertRefused(foreign, REQUEST, "issued by another store");
    assertRefused(token + "=", REQUEST, "another spelling");
    assertRefused(token.substring(0, 20), REQUEST, "truncated");
  }

  @Test
  void tokensOfTwoStoresAlternatingOnOneThreadEachVerifyOnlyWithTheirOwnSecret() {
    ListTokens mine = new ListTokens(SECRET, CLOCK, LIFETIME);
    ListTokens theirs = new ListTokens("another secret, 16+ bytes".getBytes(
        StandardCharsets.US_ASCII), CLOCK, LIFETIME);
    Cursor at = new Cursor("k", false);
    for (int i = 0; i < 3; i++) {
      String a = mine.issue(REQUEST, at);
      String b = theirs.issue(REQUEST, at);
      assertEquals(at, mine.verify(a, REQUEST));
      assertEquals(at, theirs.verify(b, REQUEST));
      assertThrows(OmException.class, () -> mine.verify(b, REQUEST));
      assertThrows(OmException.class, () -> theirs.verify(a, REQUEST));
    }
    String a = mine.issue(REQUEST, at);
    assertEquals(at, java.util.concurrent.CompletableFuture
        .supplyAsync(() -> mine.verify(a, REQUEST)).join(), "verified on another thread");
  }

  @Test
  void aStaleTokenIsRefused() {
    String token = tokenFor(REQUEST);
    Pager later = pagerAt(Clock.offset(CLOCK, LIFETIME.plusMillis(1)));
    OracleSource source = source(5);
    OmException e = assertThrows(OmException.class,
        () -> later.page(REQUEST, token, null, 2, source));
    assertEquals(OmException.Code.INVALID_ARGUMENT, e.code());
    assertTrue(e.getMessage().contains("it expired"), e.getMessage());
    assertEquals(0, source.begun + source.opened + source.reads, "nothing is read");
    assertEquals(2, pagerAt(Clock.offset(CLOCK, LIFETIME)).page(REQUEST, token, null, 2, source)
        .items().size(), "accepted up to its lifetime");
  }

  @Test
  void aTokenOfAnotherRequestIsRefused() {
    String token = tokenFor(REQUEST);
    assertRefused(token, PageRequest.of(ListKind.LIST_OBJECTS_V2, "vol", "bucket", 7, "p"),
        "another kind");
    assertRefused(token, PageRequest.of(ListKind.LIST_KEYS, "vol", "bucket", 8, "p"),
        "a re-created bucket");
    assertRefused(token, PageRequest.of(ListKind.LIST_KEYS, "vol", "bucket", 7, "q"),
        "another prefix");
    assertRefused(token, REQUEST.with(PageRequest.DELIMITER, "/"), "another delimiter");
    assertRefused(token, REQUEST.withFlag(PageRequest.RECURSIVE, true), "a flag set");
    String recursive = tokenFor(REQUEST.withFlag(PageRequest.RECURSIVE, true));
    assertRefused(recursive, REQUEST, "a flag unset");
  }

  @Test
  void namedExtrasDoNotShareASlot() {
    // The old layout hashed one "delimiter" slot that flags reused: a delimiter spelled like a
    // flag's value collided with it. Named extras never do.
    assertNotEquals(Arrays.toString(REQUEST.with(PageRequest.DELIMITER, "true").hash()),
        Arrays.toString(REQUEST.withFlag(PageRequest.RECURSIVE, true).hash()));
    assertEquals(Arrays.toString(REQUEST.hash()),
        Arrays.toString(REQUEST.with(PageRequest.DELIMITER, "").hash()),
        "an empty extra is an absent one");
    assertEquals(Arrays.toString(REQUEST.with("a", "1").with("b", "2").hash()),
        Arrays.toString(REQUEST.with("b", "2").with("a", "1").hash()),
        "extras are hashed in name order");
  }

  @Test
  void aTokenOfTheOldVersionIsRefusedClearly() throws Exception {
    // A version-1 token as the previous layout issued it, validly MACed with this store's secret.
    byte[] body = ListToken.newBuilder()
        .setVersion(1)
        .setKind(ListKind.LIST_KEYS)
        .setRequestHash(ByteString.copyFrom(REQUEST.hash()))
        .setLastKey("k001")
        .setIssuedAt(CLOCK.millis())
        .build()
        .toByteArray();
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SECRET, "HmacSHA256"));
    byte[] tag = mac.doFinal(body);
    byte[] raw = Arrays.copyOf(body, body.length + tag.length);
    System.arraycopy(tag, 0, raw, body.length, tag.length);
    String old = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    assertRefused(old, REQUEST, "version 1");
    OmException e = assertThrows(OmException.class,
        () -> pager.page(REQUEST, old, null, 2, source(5)));
    assertTrue(e.getMessage().contains("version 1 is not supported"), e.getMessage());
    assertTrue(e.getMessage().contains("first page"), e.getMessage());
    assertEquals(2, ListTokens.VERSION);
    assertEquals(Map.of(), REQUEST.extras());
  }
}
