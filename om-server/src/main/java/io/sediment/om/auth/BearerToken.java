package io.sediment.om.auth;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The form of a bearer token, {@code sdt_<id>_<secret>}: {@code id} is {@value #ID_BYTES} random
 * bytes in lower-case hex (public: it names the token in listings and revocations), {@code secret}
 * {@value #SECRET_BYTES} random bytes in unpadded base64url. A server stores only a random salt of
 * {@value #SALT_BYTES} bytes and {@link #hash SHA-256(salt || secret)}.
 *
 * <p>Immutable; {@link #toString()} never shows the secret.
 *
 * @param id the token's id
 * @param secret the secret's bytes
 */
public record BearerToken(String id, byte[] secret) {

  /** The prefix of every token. */
  public static final String PREFIX = "sdt_";
  public static final int ID_BYTES = 12;
  public static final int SECRET_BYTES = 32;
  public static final int SALT_BYTES = 16;

  private static final SecureRandom RANDOM = new SecureRandom();

  public BearerToken {
    Objects.requireNonNull(id, "id");
    secret = secret.clone();
  }

  /**
   * A new token, its salt and its hash: what the server that makes a token stores is
   * {@link Issued#salt} and {@link Issued#hash}; {@link Issued#token} is shown to the caller once.
   */
  public static Issued issue() {
    byte[] id = new byte[ID_BYTES];
    byte[] secret = new byte[SECRET_BYTES];
    byte[] salt = new byte[SALT_BYTES];
    RANDOM.nextBytes(id);
    RANDOM.nextBytes(secret);
    RANDOM.nextBytes(salt);
    BearerToken t = new BearerToken(HexFormat.of().formatHex(id), secret);
    return new Issued(t.id(), t.text(), salt, hash(salt, secret));
  }

  /**
   * Reads a token's text.
   *
   * @return the token, or {@code null} if {@code text} is not of the form
   *     {@code sdt_<hex id>_<base64url secret of 32 bytes>}
   */
  public static BearerToken parse(String text) {
    if (text == null || !text.startsWith(PREFIX)) {
      return null;
    }
    int sep = text.indexOf('_', PREFIX.length());
    if (sep < 0) {
      return null;
    }
    String id = text.substring(PREFIX.length(), sep);
    if (id.length() != 2 * ID_BYTES || !id.chars().allMatch(
        c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      return null;
    }
    byte[] secret;
    try {
      secret = Base64.getUrlDecoder().decode(text.substring(sep + 1));
    } catch (IllegalArgumentException e) {
      return null;
    }
    return secret.length == SECRET_BYTES ? new BearerToken(id, secret) : null;
  }

  /** SHA-256 over {@code salt} then {@code secret}. */
  public static byte[] hash(byte[] salt, byte[] secret) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(salt);
      d.update(secret);
      return d.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("The JDK has no SHA-256", e);
    }
  }

  /** The secret's bytes (a copy). */
  @Override
  public byte[] secret() {
    return secret.clone();
  }

  /** Whether {@code salt} and {@code hash} are this token's: a constant-time comparison. */
  public boolean matches(byte[] salt, byte[] hash) {
    return MessageDigest.isEqual(hash(salt, secret), hash);
  }

  /** The token's text, {@code sdt_<id>_<secret>}: a credential, never to be logged. */
  String text() {
    return PREFIX + id + "_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BearerToken t && t.id.equals(id)
        && MessageDigest.isEqual(t.secret, secret);
  }

  @Override
  public int hashCode() {
    return id.hashCode();
  }

  @Override
  public String toString() {
    return PREFIX + id + "_<secret>";
  }

  /**
   * A token just made.
   *
   * @param id its id
   * @param token its text, {@code sdt_<id>_<secret>}: shown to its owner once, never stored
   * @param salt the salt to store
   * @param hash SHA-256(salt || secret), to store
   */
  public record Issued(String id, String token, byte[] salt, byte[] hash) {
    @Override
    public String toString() {
      return "Issued[" + PREFIX + id + "_<secret>]";
    }
  }
}
