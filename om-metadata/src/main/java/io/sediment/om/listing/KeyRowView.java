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
 * while it is read, in the same walk, so a page walks each row once. Stateless.
 */
public enum KeyRowView {

  /** The row as stored ({@link StoredRows#wellFormed}). */
  FULL {
    @Override
    public ByteString of(byte[] row) {
      return StoredRows.wellFormed(row, "KeyInfo");
    }
  },

  /**
   * The row's key name, data size, creation and modification times, owner, replication config
   * and the {@code ETag} entry of its metadata, in the row's order; every other field left out.
   */
  BASIC {
    @Override
    public ByteString of(byte[] row) {
      byte[] out = new byte[row.length];
      int length = 0;
      try {
        CodedInputStream in = CodedInputStream.newInstance(row);
        while (true) {
          int start = in.getTotalBytesRead();
          int tag = in.readTag();
          if (tag == 0) {
            break;
          }
          boolean keep;
          switch (WireFormat.getTagFieldNumber(tag)) {
            case KeyInfo.KEY_NAME_FIELD_NUMBER, KeyInfo.DATA_SIZE_FIELD_NUMBER,
                KeyInfo.CREATION_TIME_FIELD_NUMBER, KeyInfo.MODIFICATION_TIME_FIELD_NUMBER,
                KeyInfo.OWNER_FIELD_NUMBER, KeyInfo.REPLICATION_CONFIG_FIELD_NUMBER -> {
              keep = true;
              skip(in, tag);
            }
            case KeyInfo.METADATA_FIELD_NUMBER -> {
              if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                int size = in.readRawVarint32();
                int at = in.getTotalBytesRead();
                in.skipRawBytes(size);
                keep = isETag(row, at, size);
              } else {
                keep = false;
                skip(in, tag);
              }
            }
            default -> {
              keep = false;
              skip(in, tag);
            }
          }
          if (keep) {
            int end = in.getTotalBytesRead();
            System.arraycopy(row, start, out, length, end - start);
            length += end - start;
          }
        }
      } catch (IOException e) {
        throw new CodecException("Not a valid KeyInfo: " + e.getMessage(), e);
      }
      return UnsafeByteOperations.unsafeWrap(out, 0, length);
    }
  };

  private static final ByteString ETAG = ByteString.copyFromUtf8("ETag");
  /** The tag of a map entry's key: field 1, length-delimited. */
  private static final int ENTRY_KEY_TAG = 1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  /** A map entry's key field holding {@code ETag}: its tag, its length and its bytes. */
  private static final byte[] ETAG_KEY = {(byte) ENTRY_KEY_TAG, 4, 'E', 'T', 'a', 'g'};

  /**
   * {@code row} (a stored {@code KeyInfo}, which the result may share) as this view shows it.
   *
   * @throws CodecException if the row does not skim as a message
   */
  public abstract ByteString of(byte[] row);

  /** Skips a field; an end-group tag, which a whole message never has at its top, is refused. */
  private static void skip(CodedInputStream in, int tag) throws IOException {
    if (!in.skipField(tag)) {
      throw new IOException("an end-group tag outside a group");
    }
  }

  /**
   * Whether the map entry encoded in {@code row[at, at + size)} has the key {@code ETag} (field 1
   * of the entry), read in place; an entry whose key is not its first field (protobuf writes it
   * first) is read field by field.
   */
  private static boolean isETag(byte[] row, int at, int size) throws IOException {
    if (size >= ETAG_KEY.length && row[at] == ETAG_KEY[0]) {
      // The key field first: the key is ETag exactly when its tag, length and bytes are these.
      return Arrays.equals(row, at, at + ETAG_KEY.length, ETAG_KEY, 0, ETAG_KEY.length);
    }
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
  }
}
