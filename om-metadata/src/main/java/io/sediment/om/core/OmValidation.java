package io.sediment.om.core;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Argument checks. Each throws {@link OmException} with {@link OmException.Code#INVALID_ARGUMENT}
 * and a message naming the argument and the rule it breaks.
 */
public final class OmValidation {

  /** Longest key name, prefix, start-after or delimiter, in UTF-8 bytes (the S3 limit). */
  public static final int MAX_KEY_BYTES = 1024;

  /**
   * Longest database key or absolute path a caller may hand back (a {@code prevKey} or a
   * {@code startPrefix}). Stored keys add volume, bucket and ids to a name, and FSO paths grow
   * past {@link #MAX_KEY_BYTES} through renames, so this bounds input size, not any key the store
   * writes.
   */
  public static final int MAX_STORED_KEY_BYTES = 64 << 10;

  /**
   * The largest object (an OBS key, an FSO file, a completed multipart upload), as S3: 50 TiB.
   * With it, no realistic namespace can take a byte counter past the range of a long, and no
   * purge or abort of what was accepted can be refused for overflowing one.
   */
  public static final long MAX_OBJECT_BYTES = 50L << 40;

  /** The largest part of a multipart upload, as S3: 5 GiB. */
  public static final long MAX_PART_BYTES = 5L << 30;

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

  private OmValidation() {
  }

  /**
   * S3 bucket naming rules, applied to buckets and volumes alike: 3 to 63 characters of
   * {@code a-z 0-9 . -}, beginning and ending with a letter or digit, no {@code ..}, no period
   * next to a hyphen, not an IPv4 address, none of the reserved prefixes {@code xn--},
   * {@code sthree-}, {@code amzn-s3-demo-} and none of the reserved suffixes {@code -s3alias},
   * {@code --ol-s3}, {@code .mrap}, {@code --x-s3}, {@code --table-s3}.
   */
  public static void checkResourceName(String what, String name) {
    if (name == null) {
      throw OmException.invalid(what + " name is missing");
    }
    String shown = "'" + abbreviate(name) + "'";
    if (name.length() < 3 || name.length() > 63) {
      throw OmException.invalid(what + " name " + shown + " must be 3 to 63 characters long");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-')) {
        throw OmException.invalid(what + " name " + shown
            + " may contain only lowercase letters, digits, '.' and '-' (found '"
            + (Character.isSurrogate(c) ? "\\u" + Integer.toHexString(c) : String.valueOf(c))
            + "' at " + i + ")");
      }
    }
    if (!isLetterOrDigit(name.charAt(0)) || !isLetterOrDigit(name.charAt(name.length() - 1))) {
      throw OmException.invalid(what + " name " + shown
          + " must begin and end with a lowercase letter or digit");
    }
    if (name.contains("..")) {
      throw OmException.invalid(what + " name " + shown + " must not contain two adjacent periods");
    }
    if (name.contains(".-") || name.contains("-.")) {
      throw OmException.invalid(what + " name " + shown + " must not have a period next to a hyphen");
    }
    if (IPV4.matcher(name).matches()) {
      throw OmException.invalid(what + " name " + shown + " must not be formatted as an IP address");
    }
    for (String p : new String[] {"xn--", "sthree-", "amzn-s3-demo-"}) {
      if (name.startsWith(p)) {
        throw OmException.invalid(what + " name " + shown + " must not start with '" + p + "'");
      }
    }
    for (String s : new String[] {"-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"}) {
      if (name.endsWith(s)) {
        throw OmException.invalid(what + " name " + shown + " must not end with '" + s + "'");
      }
    }
  }

  /** A volume and a bucket name ({@link #checkResourceName}), the volume checked first. */
  public static void checkBucketArgs(String volume, String bucket) {
    checkResourceName("Volume", volume);
    checkResourceName("Bucket", bucket);
  }

  /** A volume, a bucket and a key name, checked in that order. */
  public static void checkKeyArgs(String volume, String bucket, String key) {
    checkBucketArgs(volume, bucket);
    checkKeyName(key);
  }

  /** A key name: non-empty, well-formed Unicode, at most 1024 UTF-8 bytes. */
  public static void checkKeyName(String key) {
    if (key == null) {
      throw OmException.invalid("Key name is missing");
    }
    if (key.isEmpty()) {
      throw OmException.invalid("Key name is empty");
    }
    checkText("Key name", key);
  }

  /**
   * An optional text argument (prefix, start-after, delimiter): {@code null} or empty is allowed,
   * else well-formed Unicode of at most 1024 UTF-8 bytes.
   */
  public static void checkOptionalText(String what, String text) {
    if (text != null && !text.isEmpty()) {
      checkText(what, text);
    }
  }

  /**
   * An optional database key or absolute path handed back by a caller ({@code prevKey},
   * {@code startPrefix}): {@code null} or empty is allowed, else well-formed Unicode of at most
   * {@link #MAX_STORED_KEY_BYTES} UTF-8 bytes.
   */
  public static void checkOptionalStoredKey(String what, String text) {
    if (text != null && !text.isEmpty()) {
      checkText(what, text, MAX_STORED_KEY_BYTES);
    }
  }

  /**
   * A data size: 0 to {@code max}.
   *
   * @throws OmException INVALID_ARGUMENT otherwise
   */
  public static void checkDataSize(String what, long size, long max) {
    if (size < 0) {
      throw OmException.invalid(what + " must not be negative: " + size);
    }
    if (size > max) {
      throw OmException.invalid(what + " " + size + " exceeds the largest allowed, " + max
          + " bytes (S3 EntityTooLarge)");
    }
  }

  /** The most UTF-8 bytes of a key's user metadata, names and values together (S3's limit). */
  public static final int MAX_METADATA_BYTES = 2048;

  /** The longest user metadata name, in characters. */
  public static final int MAX_METADATA_NAME = 128;

  /**
   * User metadata given with a commit: names of 1 to {@value #MAX_METADATA_NAME} characters
   * without control characters, names and values well-formed Unicode, together at most
   * {@value #MAX_METADATA_BYTES} UTF-8 bytes.
   *
   * @throws OmException INVALID_ARGUMENT otherwise, naming the offending entry
   */
  public static void checkMetadata(Map<String, String> metadata) {
    int bytes = 0;
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      String name = e.getKey();
      if (name.isEmpty() || name.length() > MAX_METADATA_NAME) {
        throw OmException.invalid("Metadata name must be 1 to " + MAX_METADATA_NAME
            + " characters: '" + abbreviate(name) + "'");
      }
      for (int i = 0; i < name.length(); i++) {
        if (Character.isISOControl(name.charAt(i))) {
          throw OmException.invalid("Metadata name '" + abbreviate(name)
              + "' contains a control character");
        }
      }
      checkText("Metadata name", name, MAX_METADATA_BYTES);
      checkText("Metadata value of '" + abbreviate(name) + "'", e.getValue(), MAX_METADATA_BYTES);
      bytes += name.getBytes(StandardCharsets.UTF_8).length
          + e.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    if (bytes > MAX_METADATA_BYTES) {
      throw OmException.invalid("Metadata is " + bytes + " UTF-8 bytes (names and values); at "
          + "most " + MAX_METADATA_BYTES + " are allowed");
    }
  }

  /** An optional owner: well-formed Unicode, at most 1024 UTF-8 bytes. */
  public static void checkOwner(String owner) {
    checkOptionalText("Owner", owner);
  }

  private static void checkText(String what, String text) {
    checkText(what, text, MAX_KEY_BYTES);
  }

  private static void checkText(String what, String text, int maxBytes) {
    ByteBuffer encoded;
    try {
      encoded = StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(CharBuffer.wrap(text));
    } catch (CharacterCodingException e) {
      throw OmException.invalid(what + " '" + abbreviate(text)
          + "' is not valid UTF-8 (it contains an unpaired surrogate)");
    }
    if (encoded.remaining() > maxBytes) {
      throw OmException.invalid(what + " is " + encoded.remaining() + " UTF-8 bytes; at most "
          + maxBytes + " are allowed");
    }
  }

  /**
   * A key name given as bytes: must be well-formed UTF-8 (no overlong forms, surrogates or
   * truncated sequences); returns the decoded name, which is then checked as by
   * {@link #checkKeyName}.
   */
  public static String decodeKeyName(byte[] utf8) {
    if (utf8 == null) {
      throw OmException.invalid("Key name is missing");
    }
    String key;
    try {
      key = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(utf8)).toString();
    } catch (CharacterCodingException e) {
      throw OmException.invalid("Key name is not well-formed UTF-8 ("
          + utf8.length + " bytes)");
    }
    checkKeyName(key);
    return key;
  }

  private static boolean isLetterOrDigit(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }

  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }

  // ---- FSO paths (see FsoPath for the component rules) ----

  /**
   * The text of an FSO path or start key: present, well-formed Unicode (no unpaired surrogate,
   * so its UTF-8 form is valid) and at most {@code maxBytes} UTF-8 bytes.
   */
  public static void checkPathText(String what, String text, int maxBytes) {
    if (text == null) {
      throw OmException.invalid(what + " is missing");
    }
    checkText(what, text, maxBytes);
  }

  /**
   * An FSO path given as bytes: must be well-formed UTF-8 (no overlong forms, surrogates or
   * truncated sequences); returns the decoded text, which {@link io.sediment.om.fso.FsoPath} then checks.
   */
  public static String decodePath(byte[] utf8) {
    if (utf8 == null) {
      throw OmException.invalid("Path is missing");
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(utf8)).toString();
    } catch (CharacterCodingException e) {
      throw OmException.invalid("Path is not well-formed UTF-8 (" + utf8.length + " bytes)");
    }
  }
}
