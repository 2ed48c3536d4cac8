package io.sediment.om.listing;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.WireFormat;
import io.sediment.db.codec.CodecException;
import io.sediment.om.core.StoredRows;
import io.sediment.proto.om.KeyInfo;
import java.io.IOException;
import java.util.Arrays;

/**
 * How a ListObjects page returns each stored {@link KeyInfo} row: whole, or cut to what an S3
 * listing shows. Either way the result is a valid {@code KeyInfo} encoding made of the row's own
 * bytes (no field decoded or re-encoded), and a row that does not skim as a message is refused
 * while it is read, in the same walk, so a page walks each row once. Stateless; a {@link Cut} is
 * one page's.
 */
public enum KeyRowView {

  /** The row as stored ({@link StoredRows#wellFormed}). */
  FULL {
    @Override
    public Cut page() {
      return row -> StoredRows.wellFormed(row, "KeyInfo");
    }
  },

  /**
   * The row's key name, data size, creation and modification times, owner, replication config
   * and the {@code ETag} entry of its metadata, in the row's order; every other field left out.
   * The rows of one page are cut into one shared buffer.
   */
  BASIC {
    @Override
    public Cut page() {
      return new BasicCut(FIRST_BUFFER);
    }

    @Override
    public ByteString of(byte[] row) {
      return new BasicCut(row.length).of(row);
    }
  };

  /** The rows of one page through a view, in turn. Not thread-safe. */
  @FunctionalInterface
  public interface Cut {

    /**
     * {@code row} (a stored {@code KeyInfo}, which the result may share) as the view shows it.
     * Results stay valid and unchanged after later rows are cut.
     *
     * @throws CodecException if the row does not skim as a message
     */
    ByteString of(byte[] row);
  }

  /**
   * {@code row} as this view shows it, outside any page.
   *
   * @throws CodecException if the row does not skim as a message
   */
  public ByteString of(byte[] row) {
    return page().of(row);
  }

  /** A cut for the rows of one page. */
  public abstract Cut page();

  private static final ByteString ETAG = ByteString.copyFromUtf8("ETag");
  /** The tag of a map entry's key: field 1, length-delimited. */
  private static final int ENTRY_KEY_TAG = 1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  /** A map entry's key field holding {@code ETag}: its tag, its length and its bytes. */
  private static final byte[] ETAG_KEY = {(byte) ENTRY_KEY_TAG, 4, 'E', 'T', 'a', 'g'};
  /**
   * The first buffer of a page: two thirds of a page of 1,000 freon rows cut (about 46 KiB); each
   * next buffer is twice the last.
   */
  private static final int FIRST_BUFFER = 32 * 1024;

  /**
   * The basic view's cut: one walk of the row's top-level fields (tag, then the field's extent
   * by its wire type), copying each run of kept fields into the page's buffer at once. A group's
   * extent is found by protobuf's own skip; whatever protobuf's skim refuses (a truncated field, a
   * malformed varint, tag zero, an end-group tag or an unknown wire type at the top) is refused
   * here.
   */
  private static final class BasicCut implements Cut {
    private final int first;
    private byte[] buf;
    private int used;
    /** The walk's position in the current row. */
    private int pos;

    BasicCut(int first) {
      this.first = first;
    }

    @Override
    public ByteString of(byte[] row) {
      reserve(row.length);
      int from = used;
      int end = row.length;
      int run = -1;
      pos = 0;
      while (pos < end) {
        int start = pos;
        int tag = readVarint32(row);
        int field = WireFormat.getTagFieldNumber(tag);
        if (field == 0) {
          throw invalid("tag zero");
        }
        boolean keep;
        switch (WireFormat.getTagWireType(tag)) {
          case WireFormat.WIRETYPE_VARINT -> {
            skipVarint(row);
            keep = isBasicScalar(field);
          }
          case WireFormat.WIRETYPE_FIXED64 -> {
            pos = within(pos + 8, end);
            keep = isBasicScalar(field);
          }
          case WireFormat.WIRETYPE_FIXED32 -> {
            pos = within(pos + 4, end);
            keep = isBasicScalar(field);
          }
          case WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
            int size = readVarint32(row);
            if (size < 0) {
              throw invalid("a negative length");
            }
            int body = pos;
            pos = within(body + size, end);
            keep = field == KeyInfo.METADATA_FIELD_NUMBER
                ? isETag(row, body, size) : isBasicScalar(field);
          }
          case WireFormat.WIRETYPE_START_GROUP -> {
            pos = skipGroup(row, pos, field);
            keep = false;
          }
          default -> throw invalid("an end-group tag or an invalid wire type at the top");
        }
        if (keep && run < 0) {
          run = start;
        } else if (!keep && run >= 0) {
          copy(row, run, start);
          run = -1;
        }
      }
      if (run >= 0) {
        copy(row, run, end);
      }
      return UnsafeByteOperations.unsafeWrap(buf, from, used - from);
    }

    private void copy(byte[] row, int from, int to) {
      System.arraycopy(row, from, buf, used, to - from);
      used += to - from;
    }

    /** Room for {@code size} more bytes; a full buffer is left to the rows that share it. */
    private void reserve(int size) {
      if (buf == null || buf.length - used < size) {
        int length = buf == null ? first : buf.length * 2;
        buf = new byte[Math.max(length, size)];
        used = 0;
      }
    }

    /**
     * The varint at {@link #pos}, read as protobuf reads a tag or a length: a varint longer than
     * 32 bits gives its low 32 bits.
     */
    private int readVarint32(byte[] row) {
      int at = pos;
      if (at < row.length && row[at] >= 0) {
        pos = at + 1;
        return row[at];
      }
      int value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (at >= row.length) {
          throw invalid("a truncated varint");
        }
        byte b = row[at++];
        if (shift < 32) {
          value |= (b & 0x7f) << shift;
        }
        if (b >= 0) {
          pos = at;
          return value;
        }
      }
      throw invalid("a malformed varint");
    }

    private void skipVarint(byte[] row) {
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
  }

  /** Fields the basic view keeps apart from the ETag metadata entry. */
  private static boolean isBasicScalar(int field) {
    return switch (field) {
      case KeyInfo.KEY_NAME_FIELD_NUMBER, KeyInfo.DATA_SIZE_FIELD_NUMBER,
          KeyInfo.CREATION_TIME_FIELD_NUMBER, KeyInfo.MODIFICATION_TIME_FIELD_NUMBER,
          KeyInfo.OWNER_FIELD_NUMBER, KeyInfo.REPLICATION_CONFIG_FIELD_NUMBER -> true;
      default -> false;
    };
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

  private static CodecException invalid(String why) {
    return new CodecException("Not a valid KeyInfo: " + why);
  }

  /**
   * Whether the map entry encoded in {@code row[at, at + size)} has the key {@code ETag} (field 1
   * of the entry), read in place; an entry whose key is not its first field (protobuf writes it
   * first) is read field by field.
   */
  private static boolean isETag(byte[] row, int at, int size) {
    if (size >= ETAG_KEY.length && row[at] == ETAG_KEY[0]) {
      // The key field first: the key is ETag exactly when its tag, length and bytes are these.
      return Arrays.equals(row, at, at + ETAG_KEY.length, ETAG_KEY, 0, ETAG_KEY.length);
    }
    try {
      CodedInputStream in = CodedInputStream.newInstance(row, at, size);
      while (true) {
        int tag = in.readTag();
        if (tag == 0) {
          return false;
        }
        if (tag == ENTRY_KEY_TAG) {
          return in.readBytes().equals(ETAG);
        }
        in.skipField(tag);
      }
    } catch (IOException e) {
      throw invalid(e.getMessage());
    }
  }
}
