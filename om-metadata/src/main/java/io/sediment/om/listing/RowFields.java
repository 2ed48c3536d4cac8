package io.sediment.om.listing;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.sediment.db.codec.CodecException;
import java.io.IOException;

/**
 * A walk of the top-level fields of one stored {@code KeyInfo} row, in the row's order, reading
 * each field's extent from its wire type without decoding its value. What protobuf's skim refuses
 * (a truncated field, a malformed varint, tag zero, an end-group tag or an unknown wire type at
 * the top) is refused here, when the walk reaches it. A group's extent is found by protobuf's own
 * skip. Reusable across rows by {@link #reset}; not thread-safe.
 */
final class RowFields {

  private byte[] row;
  private int pos;
  private int start;
  private int value;
  private int field;
  private int wireType;

  /** Starts a walk of {@code row}, before its first field. */
  void reset(byte[] row) {
    this.row = row;
    this.pos = 0;
  }

  /**
   * Moves to the next field.
   *
   * @return false at the row's end, and then the walk stays there
   * @throws CodecException if the field does not skim
   */
  boolean next() {
    if (pos >= row.length) {
      return false;
    }
    int end = row.length;
    start = pos;
    int tag = readVarint32();
    field = WireFormat.getTagFieldNumber(tag);
    if (field == 0) {
      throw invalid("tag zero");
    }
    wireType = WireFormat.getTagWireType(tag);
    switch (wireType) {
      case WireFormat.WIRETYPE_VARINT -> {
        value = pos;
        skipVarint();
      }
      case WireFormat.WIRETYPE_FIXED64 -> {
        value = pos;
        pos = within(pos + 8, end);
      }
      case WireFormat.WIRETYPE_FIXED32 -> {
        value = pos;
        pos = within(pos + 4, end);
      }
      case WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
        int size = readVarint32();
        if (size < 0) {
          throw invalid("a negative length");
        }
        value = pos;
        pos = within(value + size, end);
      }
      case WireFormat.WIRETYPE_START_GROUP -> {
        value = pos;
        pos = skipGroup(row, pos, field);
      }
      default -> throw invalid("an end-group tag or an invalid wire type at the top");
    }
    return true;
  }

  /** The current field's number. */
  int field() {
    return field;
  }

  /** The current field's wire type ({@link WireFormat}'s constants). */
  int wireType() {
    return wireType;
  }

  /** Where the current field starts: the offset of its tag. */
  int start() {
    return start;
  }

  /**
   * Where the current field's value starts: after its tag, and for a length-delimited field
   * after its length too (its bytes are then {@code [value(), end())}).
   */
  int value() {
    return value;
  }

  /** Where the current field ends, exclusive: the next field's start. */
  int end() {
    return pos;
  }

  /**
   * The varint at {@link #pos}, read as protobuf reads a tag or a length: a varint longer than
   * 32 bits gives its low 32 bits.
   */
  private int readVarint32() {
    int at = pos;
    if (at < row.length && row[at] >= 0) {
      pos = at + 1;
      return row[at];
    }
    int v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at >= row.length) {
        throw invalid("a truncated varint");
      }
      byte b = row[at++];
      if (shift < 32) {
        v |= (b & 0x7f) << shift;
      }
      if (b >= 0) {
        pos = at;
        return v;
      }
    }
    throw invalid("a malformed varint");
  }

  private void skipVarint() {
    int at = pos;
    int limit = Math.min(row.length, at + 10);
    while (at < limit) {
      if (row[at++] >= 0) {
        pos = at;
        return;
      }
    }
    throw invalid(at == row.length ? "a truncated varint" : "a malformed varint");
  }

  private static int within(int at, int end) {
    if (at > end || at < 0) {
      throw invalid("a field past the row's end");
    }
    return at;
  }

  /** The offset after the group of {@code field} whose start tag ends at {@code at}. */
  private static int skipGroup(byte[] row, int at, int field) {
    try {
      CodedInputStream in = CodedInputStream.newInstance(row, at, row.length - at);
      in.skipMessage();
      in.checkLastTagWas(field << 3 | WireFormat.WIRETYPE_END_GROUP);
      return at + in.getTotalBytesRead();
    } catch (IOException e) {
      throw invalid(e.getMessage());
    }
  }

  static CodecException invalid(String why) {
    return new CodecException("Not a valid KeyInfo: " + why);
  }
}
