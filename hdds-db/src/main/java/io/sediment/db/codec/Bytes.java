package io.sediment.db.codec;

import java.util.Arrays;
import java.util.Objects;

/**
 * Byte-string helpers in RocksDB's default order: unsigned lexicographic, shorter first on a
 * common prefix. Stateless.
 */
public final class Bytes {

  private Bytes() {
  }

  /** Unsigned lexicographic comparison, as RocksDB's {@code BytewiseComparator}. */
  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /** Whether {@code bytes} starts with {@code prefix}. */
  public static boolean startsWith(byte[] bytes, byte[] prefix) {
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(prefix, "prefix");
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }

  /**
   * The first index at or after {@code from} where {@code target} occurs in {@code bytes}, or -1.
   * An empty target occurs at {@code from} (when {@code from <= bytes.length}).
   */
  public static int indexOf(byte[] bytes, byte[] target, int from) {
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(target, "target");
    int last = bytes.length - target.length;
    for (int i = Math.max(from, 0); i <= last; i++) {
      if (Arrays.equals(bytes, i, i + target.length, target, 0, target.length)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The smallest byte string greater than every string starting with {@code prefix}: the prefix
   * with trailing {@code 0xFF} bytes removed and its last byte incremented. {@code null} when no
   * such string exists (the prefix is empty or all {@code 0xFF}), meaning "no upper bound".
   */
  public static byte[] prefixSuccessor(byte[] prefix) {
    int end = prefix.length;
    while (end > 0 && prefix[end - 1] == (byte) 0xFF) {
      end--;
    }
    if (end == 0) {
      return null;
    }
    byte[] next = Arrays.copyOf(prefix, end);
    next[end - 1]++;
    return next;
  }

  /** Printable form: ASCII printable bytes as is, others as {@code \xNN}; cut after 128 bytes. */
  public static String toDisplayString(byte[] bytes) {
    if (bytes == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder();
    int n = Math.min(bytes.length, 128);
    for (int i = 0; i < n; i++) {
      int c = bytes[i] & 0xFF;
      if (c >= 0x20 && c < 0x7F && c != '\\') {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02X", c));
      }
    }
    if (bytes.length > n) {
      sb.append("...(").append(bytes.length).append(" bytes)");
    }
    return sb.toString();
  }
}
