package io.sediment.om;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.sediment.proto.om.ListKind;
import io.sediment.proto.om.ListToken;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Continuation tokens: {@code base64url(no padding)(token ‖ HMAC-SHA256(secret, token))} where
 * {@code token} is a serialized {@link ListToken}. The MAC makes a token unforgeable by anyone
 * without the store's secret; the token's request hash binds it to the listing, volume, bucket
 * (by object id, so a re-created bucket of the same name does not accept it), prefix and
 * delimiter it was issued for; its issue time bounds its age. Only the exact text issued is
 * accepted: base64 has other spellings of the same bytes (with {@code =} padding, or with
 * non-zero unused bits in the last character), and a token that decodes but does not re-encode
 * to itself was not issued by this store, so it is refused like any altered token. Every failure
 * is {@link OmException.Code#INVALID_ARGUMENT}. Thread-safe.
 */
final class ListTokens {

  static final int VERSION = 1;
  private static final String MAC = "HmacSHA256";
  private static final int MAC_BYTES = 32;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  /**
   * Longest token accepted, in characters. A token holds one last key or path, and an FSO path
   * has no length limit once ancestors have been renamed, so this only bounds the work a forged
   * token costs (one MAC over at most this much): about 760 KiB of path.
   */
  static final int MAX_TOKEN_CHARS = 1 << 20;

  /** A verified cursor: resume after {@code lastKey} (and, for a prefix, after all under it). */
  record Cursor(String lastKey, boolean lastIsPrefix) {
  }

  private final SecretKeySpec key;
  private final Clock clock;
  private final Duration maxAge;

  ListTokens(byte[] secret, Clock clock, Duration maxAge) {
    if (secret.length < 16) {
      throw new IllegalArgumentException("Token secret too short");
    }
    this.key = new SecretKeySpec(secret.clone(), MAC);
    this.clock = Objects.requireNonNull(clock);
    this.maxAge = Objects.requireNonNull(maxAge);
  }

  /** SHA-256 over the length-prefixed request fields; {@code null} and empty are the same. */
  static byte[] requestHash(ListKind kind, String volume, String bucket, long bucketObjectId,
      String prefix, String delimiter) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      update(md, kind.name());
      update(md, volume);
      update(md, bucket);
      update(md, Long.toString(bucketObjectId));
      update(md, prefix);
      update(md, delimiter);
      return md.digest();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  private static void update(MessageDigest md, String field) {
    byte[] b = (field == null ? "" : field).getBytes(StandardCharsets.UTF_8);
    md.update(new byte[] {(byte) (b.length >>> 24), (byte) (b.length >>> 16),
        (byte) (b.length >>> 8), (byte) b.length});
    md.update(b);
  }

  String issue(ListKind kind, byte[] requestHash, String lastKey, boolean lastIsPrefix) {
    byte[] body = ListToken.newBuilder()
        .setVersion(VERSION)
        .setKind(kind)
        .setRequestHash(ByteString.copyFrom(requestHash))
        .setLastKey(lastKey)
        .setLastIsPrefix(lastIsPrefix)
        .setIssuedAt(clock.millis())
        .build()
        .toByteArray();
    byte[] out = Arrays.copyOf(body, body.length + MAC_BYTES);
    System.arraycopy(mac(body), 0, out, body.length, MAC_BYTES);
    return ENCODER.encodeToString(out);
  }

  /**
   * Verifies {@code token} for a request of {@code kind} whose hash is {@code requestHash}.
   *
   * @throws OmException INVALID_ARGUMENT if it is malformed, not spelled exactly as issued,
   *     forged, truncated, expired or was issued for another request
   */
  Cursor verify(String token, ListKind kind, byte[] requestHash) {
    if (token.length() > MAX_TOKEN_CHARS) {
      throw invalid("it is too long");
    }
    byte[] raw;
    try {
      raw = Base64.getUrlDecoder().decode(token);
    } catch (IllegalArgumentException e) {
      throw invalid("it is not base64url");
    }
    if (!ENCODER.encodeToString(raw).equals(token)) {
      throw invalid("it was altered (it is not spelled as this store issues tokens: unpadded "
          + "base64url, unused bits zero)");
    }
    if (raw.length <= MAC_BYTES) {
      throw invalid("it is truncated");
    }
    byte[] body = Arrays.copyOf(raw, raw.length - MAC_BYTES);
    byte[] tag = Arrays.copyOfRange(raw, raw.length - MAC_BYTES, raw.length);
    if (!MessageDigest.isEqual(tag, mac(body))) {
      throw invalid("it was not issued by this store or was altered");
    }
    ListToken t;
    try {
      t = ListToken.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      throw invalid("it does not parse");
    }
    if (t.getVersion() != VERSION) {
      throw invalid("its version " + t.getVersion() + " is not supported");
    }
    if (t.getKind() != kind
        || !MessageDigest.isEqual(t.getRequestHash().toByteArray(), requestHash)) {
      throw invalid("it belongs to another listing (volume, bucket, prefix or delimiter differ)");
    }
    if (!maxAge.isZero()) {
      long age = clock.millis() - t.getIssuedAt();
      if (age > maxAge.toMillis() || age < -maxAge.toMillis()) {
        throw invalid("it expired (issued " + age + " ms ago; tokens live " + maxAge + ")");
      }
    }
    return new Cursor(t.getLastKey(), t.getLastIsPrefix());
  }

  private byte[] mac(byte[] body) {
    try {
      Mac mac = Mac.getInstance(MAC);
      mac.init(key);
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }

  private static OmException invalid(String why) {
    return OmException.invalid("The continuation token is invalid: " + why);
  }
}
