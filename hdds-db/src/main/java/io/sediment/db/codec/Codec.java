package io.sediment.db.codec;

/**
 * Converts objects of one type to the bytes a table stores and back.
 *
 * <p>Contract: {@code fromPersistedFormat(toPersistedFormat(x))} equals {@code x}; for key codecs
 * the byte order of encoded keys (unsigned lexicographic, RocksDB's default comparator) must
 * match the intended key order. Invalid input, in either direction, throws
 * {@link CodecException}; {@code null} throws {@link NullPointerException}. Codecs are stateless
 * and thread-safe.
 *
 * <p>Tables move keys and values through pooled direct {@link CodecBuffer}s. A codec that can
 * write straight into one overrides {@link #encodeInto} (and {@link #decode(CodecBuffer)} to read
 * straight from one); the defaults go through an intermediate array.
 */
public interface Codec<T> {

  /** The type this codec converts. */
  Class<T> getTypeClass();

  byte[] toPersistedFormat(T object);

  T fromPersistedFormat(byte[] bytes);

  /** Appends the encoding of {@code object} to {@code buffer}. */
  default void encodeInto(T object, CodecBuffer buffer) {
    buffer.put(toPersistedFormat(object));
  }

  /** Encodes {@code object} into a new pooled direct buffer that the caller must release. */
  default CodecBuffer toCodecBuffer(T object) {
    CodecBuffer buffer = CodecBuffer.allocateDirect(64);
    try {
      encodeInto(object, buffer);
      return buffer;
    } catch (RuntimeException e) {
      buffer.release();
      throw e;
    }
  }

  /** Decodes the readable bytes of {@code buffer}; the buffer is not released. */
  default T decode(CodecBuffer buffer) {
    return fromPersistedFormat(buffer.getArray());
  }
}
