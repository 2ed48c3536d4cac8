package io.sediment.db.testing;

import io.sediment.db.codec.Codec;
import java.nio.charset.StandardCharsets;

/**
 * {@code String} as ISO-8859-1 for tests: one byte a character, so every byte string (the empty
 * one, {@code 0x00}, {@code 0xFF}) is a key and the order of strings is the order of their bytes.
 * Characters above {@code U+00FF} are not representable and must not be used.
 */
public final class Latin1Codec implements Codec<String> {

  private static final Latin1Codec INSTANCE = new Latin1Codec();

  private Latin1Codec() {
  }

  public static Latin1Codec get() {
    return INSTANCE;
  }

  @Override
  public Class<String> getTypeClass() {
    return String.class;
  }

  @Override
  public byte[] toPersistedFormat(String object) {
    return object.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Override
  public String fromPersistedFormat(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }
}
