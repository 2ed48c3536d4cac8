package io.sediment.om;

import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The other base64url spellings of the bytes of an issued (unpadded, canonical) token, each of
 * which a lenient decoder such as {@link Base64#getUrlDecoder()} reads as the same bytes: the
 * {@code =}-padded form, and every last character that differs from the issued one only in the
 * bits the last group leaves unused (2 unused bits give 3 such characters, 4 give 15).
 */
public final class TokenSpellings {

  private static final String ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  private TokenSpellings() {
  }

  /**
   * By description, the respellings of {@code token}; empty if its byte count is a multiple of 3
   * (no padding, no unused bits).
   */
  public static Map<String, String> of(String token) {
    Map<String, String> out = new LinkedHashMap<>();
    int tail = token.length() % 4;
    if (tail == 0) {
      return out;
    }
    int unusedBits = tail == 2 ? 4 : 2;
    out.put("padded with '='", token + "=".repeat(4 - tail));
    char last = token.charAt(token.length() - 1);
    int value = ALPHABET.indexOf(last);
    String head = token.substring(0, token.length() - 1);
    for (int low = 1; low < 1 << unusedBits; low++) {
      char other = ALPHABET.charAt(value | low);
      out.put("last character '" + last + "' spelled '" + other + "'", head + other);
    }
    for (String respelled : out.values()) {
      if (!Arrays.equals(Base64.getUrlDecoder().decode(respelled),
          Base64.getUrlDecoder().decode(token))) {
        throw new AssertionError("not a respelling of " + token + ": " + respelled);
      }
    }
    return out;
  }
}
