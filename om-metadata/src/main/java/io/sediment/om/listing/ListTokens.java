package io.sediment.om.listing;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.sediment.om.core.OmException;
import io.sediment.proto.om.ListToken;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Continuation tokens: {@code base64url(no padding)(token ‖ HMAC-SHA256(secret, token))} where
 * {@code token} is a serialized {@link ListToken}. The MAC makes a token unforgeable by anyone
 * without the store's secret; the token's request hash ({@link PageRequest#hash()}) binds it to
 * the request it was issued for; its issue time bounds its age. Tokens of another
 * {@link #VERSION} (an older request-hash layout) are refused. Only the exact text issued is
 * accepted: base64 has other spellings of the same bytes (with {@code =} padding, or with
 * non-zero unused bits in the last character), and a token that decodes but does not re-encode
 * to itself was not issued by this store, so it is refused like any altered token. Every failure
 * is {@link OmException.Code#INVALID_ARGUMENT}. Thread-safe.
 */
public final class ListTokens {

  /**
   * The token format: 2 since the request hash names its extras ({@link PageRequest}); tokens of
   * version 1 hashed a delimiter slot that also carried flags, and are refused.
   */
  public static final int VERSION = 2;
  private static final String MAC = "HmacSHA256";
  private static final int MAC_BYTES = 32;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  /**
   * Longest token accepted, in characters. A token holds one last key or path, and an FSO path
   * has no length limit once ancestors have been renamed, so this only bounds the work a forged
   * token costs (one MAC over at most this much): about 760 KiB of path.
   */
  public static final int MAX_TOKEN_CHARS = 1 << 20;

  /**
   * Each thread's Mac, made and keyed once rather than per token: finding the provider and
   * keying cost more than the MAC of a short token.
   */
  private static final ThreadLocal<ThreadMac> MACS = ThreadLocal.withInitial(ThreadMac::new);

  private final Supplier<byte[]> secret;
  private final Clock clock;
  private final Duration maxAge;
  /** The MAC key made from the secret array last seen; rebuilt when the supplier's array changes. */
  private volatile Keyed keyed;

  private record Keyed(byte[] source, SecretKeySpec key) {}

  /**
   * @param secret the MAC key, at least 16 bytes
   * @param maxAge how long a token is accepted after it was issued; zero for ever
   */
  public ListTokens(byte[] secret, Clock clock, Duration maxAge) {
    this(constant(secret.clone()), clock, maxAge);
  }

  /**
   * Tokens whose MAC key may change (a replica adopting its group's secret): every issue and
   * verify uses the array {@code secret} supplies then, so tokens signed with an earlier key stop
   * verifying once it changes. The supplier must return the same array until the key changes.
   *
   * @param secret supplies the MAC key, at least 16 bytes; callers must not modify the array
   * @param maxAge how long a token is accepted after it was issued; zero for ever
   */
  public ListTokens(Supplier<byte[]> secret, Clock clock, Duration maxAge) {
    this.secret = Objects.requireNonNull(secret);
    this.clock = Objects.requireNonNull(clock);
    this.maxAge = Objects.requireNonNull(maxAge);
    key();
  }

  private static Supplier<byte[]> constant(byte[] secret) {
    return () -> secret;
  }

  private SecretKeySpec key() {
    byte[] current = secret.get();
    Keyed k = keyed;
    if (k == null || k.source() != current) {
      if (current.length < 16) {
        throw new IllegalArgumentException("Token secret too short");
      }
      k = new Keyed(current, new SecretKeySpec(current.clone(), MAC));
      keyed = k;
    }
    return k.key();
  }

  /** A token for the page of {@code request} that resumes after {@code cursor}. */
  public String issue(PageRequest request, Cursor cursor) {
    byte[] body = ListToken.newBuilder()
        .setVersion(VERSION)
        .setKind(request.kind())
        .setRequestHash(ByteString.copyFrom(request.hash()))
        .setLastKey(cursor.lastKey())
        .setLastIsPrefix(cursor.lastIsPrefix())
        .setIssuedAt(clock.millis())
        .build()
        .toByteArray();
    byte[] out = Arrays.copyOf(body, body.length + MAC_BYTES);
    System.arraycopy(mac(body), 0, out, body.length, MAC_BYTES);
    return ENCODER.encodeToString(out);
  }

  /**
   * Verifies {@code token} for {@code request} and returns where it resumes.
   *
   * @throws OmException INVALID_ARGUMENT if it is malformed, not spelled exactly as issued,
   *     forged, truncated, expired or was issued for another request
   */
  public Cursor verify(String token, PageRequest request) {
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
      throw invalid("its version " + t.getVersion() + " is not supported (this store issues "
          + "version " + VERSION + " tokens; list again from the first page)");
    }
    if (t.getKind() != request.kind()
        || !MessageDigest.isEqual(t.getRequestHash().toByteArray(), request.hash())) {
      throw invalid(
          "it belongs to another listing (volume, bucket, prefix, delimiter or flags differ)");
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
    SecretKeySpec key = key();
    ThreadMac m = MACS.get();
    if (m.key != key) {
      m.key = null; // until init succeeds: a failed init leaves the Mac in no known state
      try {
        if (m.mac == null) {
          m.mac = Mac.getInstance(MAC);
        }
        m.mac.init(key);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("HmacSHA256 unavailable", e);
      }
      m.key = key;
    }
    // doFinal leaves the Mac initialized with the same key, ready for the next body.
    return m.mac.doFinal(body);
  }

  /** A thread's Mac and the key it was last initialized with (compared by identity). */
  private static final class ThreadMac {
    private Mac mac;
    private SecretKeySpec key;
  }

  private static OmException invalid(String why) {
    return new OmException(OmException.Code.INVALID_ARGUMENT,
        "The continuation token is invalid: " + why);
  }
}
