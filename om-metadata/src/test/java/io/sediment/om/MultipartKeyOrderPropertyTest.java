package io.sediment.om;

import static io.sediment.om.OmTestSupport.UTF8_ORDER;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sediment.om.core.OmKeys;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The multipartInfoTable layout ({@link OmKeys#multipartKey}) sorts, byte for byte, exactly as S3
 * lists uploads: by key, then upload id; the key-marker position sorts after every upload of its
 * key and before every upload of a later key; and a key prefix selects exactly the keys that
 * start with it. Keys are drawn from characters around the separators ({@code U+0000},
 * {@code ' '}, {@code '-'}, {@code '.'}, {@code '/'}, {@code U+007F}, {@code '0'}) where a
 * {@code key/uploadId} layout goes wrong.
 */
class MultipartKeyOrderPropertyTest {

  @Provide
  Arbitrary<String> keys() {
    return Arbitraries.strings().withChars('\0', '\u0001', ' ', '-', '.', '/', '0', 'a', '\u007f',
        '\u00e9').ofMinLength(1).ofMaxLength(5);
  }

  @Provide
  Arbitrary<Long> ids() {
    return Arbitraries.longs().between(0, 40);
  }

  private static String row(String key, long id) {
    return OmKeys.multipartKey("v", "b", key, OmKeys.id(id));
  }

  @Property(tries = 2000)
  void rowOrderIsKeyThenUploadId(@ForAll("keys") String k1, @ForAll("ids") long u1,
      @ForAll("keys") String k2, @ForAll("ids") long u2) {
    int byKey = UTF8_ORDER.compare(k1, k2);
    int expected = byKey != 0 ? byKey : Long.compare(u1, u2);
    assertEquals(Integer.signum(expected), Integer.signum(UTF8_ORDER.compare(row(k1, u1),
        row(k2, u2))), () -> "keys '" + k1 + "' and '" + k2 + "'");
  }

  @Property(tries = 2000)
  void theKeyMarkerPositionSplitsTheKeyFromLaterKeys(@ForAll("keys") String marker,
      @ForAll("keys") String key, @ForAll("ids") long u) {
    int position = UTF8_ORDER.compare(row(key, u),
        OmKeys.multipartKeyAfterUploadsOf("v", "b", marker));
    boolean after = UTF8_ORDER.compare(key, marker) > 0;
    assertEquals(after, position > 0, () -> "key '" + key + "', marker '" + marker + "'");
  }

  @Property(tries = 2000)
  void aKeyPrefixSelectsExactlyTheKeysStartingWithIt(@ForAll("keys") String prefix,
      @ForAll("keys") String key, @ForAll("ids") long u) {
    assertEquals(key.startsWith(prefix),
        row(key, u).startsWith(OmKeys.multipartPrefix("v", "b", prefix)),
        () -> "key '" + key + "', prefix '" + prefix + "'");
  }
}
