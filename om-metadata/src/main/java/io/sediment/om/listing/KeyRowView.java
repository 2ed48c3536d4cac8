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
 * listing shows, as a row per key or as the page's columns. A row per key is a valid
 * {@code KeyInfo} encoding made of the row's own bytes (no field decoded or re-encoded); columns
 * are the same bytes gathered by field. Either way a row that does not skim as a message is
 * refused while it is read, in the same walk, so a page walks each row once. Stateless; a
 * {@link Cut} is one page's.
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
  },

  /**
   * The basic view's fields, carried by the page as columns ({@link KeyColumnsWriter}) rather
   * than as a row per key. A row on its own ({@link #of}, {@link #page}) shows as {@link #BASIC}.
   */
  COLUMNS {
    @Override
    public Cut page() {
      return BASIC.page();
    }

    @Override
    public ByteString of(byte[] row) {
      return BASIC.of(row);
    }

    @Override
    public boolean columnar() {
      return true;
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

  /**
   * Whether a page in this view carries its keys as columns ({@link KeyColumnsWriter}) and no
   * row per key.
   */
  public boolean columnar() {
    return false;
  }

  private static final ByteString ETAG = ByteString.copyFromUtf8("ETag");
  /** The tag of a map entry's key: field 1, length-delimited. */
  private static final int ENTRY_KEY_TAG = 1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  /** A map entry's key field holding {@code ETag}: its tag, its length and its bytes. */
  static final byte[] ETAG_KEY = {(byte) ENTRY_KEY_TAG, 4, 'E', 'T', 'a', 'g'};
  /**
   * The first buffer of a page: two thirds of a page of 1,000 freon rows cut (about 46 KiB); each
   * next buffer is twice the last.
   */
  private static final int FIRST_BUFFER = 32 * 1024;

  /**
   * The basic view's cut: one walk of the row's top-level fields ({@link RowFields}), copying
   * each run of kept fields into the page's buffer at once.
   */
  private static final class BasicCut implements Cut {
    private final int first;
    private final RowFields fields = new RowFields();
    private byte[] buf;
    private int used;

    BasicCut(int first) {
      this.first = first;
    }

    @Override
    public ByteString of(byte[] row) {
      reserve(row.length);
      int from = used;
      int run = -1;
      RowFields f = fields;
      f.reset(row);
      while (f.next()) {
        boolean keep = isBasic(row, f);
        if (keep && run < 0) {
          run = f.start();
        } else if (!keep && run >= 0) {
          copy(row, run, f.start());
          run = -1;
        }
      }
      if (run >= 0) {
        copy(row, run, row.length);
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
  }

  /** Whether the basic view keeps the field {@code f} stands on. */
  private static boolean isBasic(byte[] row, RowFields f) {
    int wireType = f.wireType();
    if (wireType == WireFormat.WIRETYPE_START_GROUP) {
      return false;
    }
    if (f.field() == KeyInfo.METADATA_FIELD_NUMBER) {
      return wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED
          && isETag(row, f.value(), f.end() - f.value());
    }
    return isBasicScalar(f.field());
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

  /**
   * Whether the map entry encoded in {@code row[at, at + size)} has the key {@code ETag} (field 1
   * of the entry), read in place; an entry whose key is not its first field (protobuf writes it
   * first) is read field by field.
   */
  static boolean isETag(byte[] row, int at, int size) {
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
      throw RowFields.invalid(e.getMessage());
    }
  }
}
