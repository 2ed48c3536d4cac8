package io.sediment.om.core;

import java.nio.ByteBuffer;

/**
 * A position in a replicated log: the term of the entry and its index. Ordered by index (terms
 * never decrease along a log). Stored as 16 bytes, term then index, big-endian.
 *
 * @param term the leader term that appended the entry, at least 0
 * @param index the entry's index in the log, at least 0
 */
public record LogPosition(long term, long index) implements Comparable<LogPosition> {

  /** Length of {@link #encode()}. */
  public static final int ENCODED_LENGTH = 2 * Long.BYTES;

  public LogPosition {
    if (term < 0 || index < 0) {
      throw new IllegalArgumentException("Negative log position: term " + term + ", index "
          + index);
    }
  }

  /** The 16-byte stored form. */
  public byte[] encode() {
    return ByteBuffer.allocate(ENCODED_LENGTH).putLong(term).putLong(index).array();
  }

  /**
   * Reads the stored form.
   *
   * @throws OmException INTERNAL if {@code bytes} is not 16 bytes (a damaged meta row)
   */
  public static LogPosition decode(byte[] bytes) {
    if (bytes.length != ENCODED_LENGTH) {
      throw new OmException(OmException.Code.INTERNAL,
          "Damaged applied log position: " + bytes.length + " bytes, expected " + ENCODED_LENGTH);
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    return new LogPosition(b.getLong(), b.getLong());
  }

  @Override
  public int compareTo(LogPosition o) {
    return Long.compare(index, o.index);
  }

  @Override
  public String toString() {
    return "(t:" + term + ", i:" + index + ")";
  }
}
