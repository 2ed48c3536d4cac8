package io.sediment.db.testing;

import java.nio.charset.StandardCharsets;

/** UTF-8 conversions between test keys written as text and the bytes a table stores. */
public final class TestBytes {

  private TestBytes() {
  }

  /** The UTF-8 bytes of {@code s}. */
  public static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** The text of UTF-8 {@code bytes}; {@code null} for {@code null}. */
  public static String s(byte[] bytes) {
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }
}
