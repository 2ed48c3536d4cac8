package io.sediment.om.grpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.WireFormat;
import io.grpc.Status;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.KeyView;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link KeyView}s of encoded {@link KeyInfo} rows: each view is a valid {@code KeyInfo}
 * encoding, the row's own bytes of the fields the view keeps, in the row's order, with no field
 * decoded or re-encoded. Stateless.
 */
final class KeyViews {

  private static final ByteString ETAG = ByteString.copyFromUtf8("ETag");
  /** The tag of a map entry's key: field 1, length-delimited. */
  private static final int ENTRY_KEY_TAG = 1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;

  private KeyViews() {
  }

  /**
   * {@code view} (sent as {@code number}), checked before any work is done for the request.
   *
   * @throws io.grpc.StatusRuntimeException INVALID_ARGUMENT for a view this server does not know
   */
  static KeyView known(KeyView view, int number) {
    if (view == KeyView.UNRECOGNIZED) {
      throw Status.INVALID_ARGUMENT.withDescription("Unknown key view: " + number)
          .asRuntimeException();
    }
    return view;
  }

  /**
   * {@code rows} as {@code view} (a {@link #known} one) shows them: the same list for
   * {@link KeyView#KEY_VIEW_FULL}.
   *
   * @throws IllegalStateException if a row does not skim as a message (rows reaching here were
   *     checked when read, so this is a defect)
   */
  static List<ByteString> of(KeyView view, List<ByteString> rows) {
    if (view == KeyView.KEY_VIEW_FULL) {
      return rows;
    }
    List<ByteString> out = new ArrayList<>(rows.size());
    for (ByteString row : rows) {
      out.add(basic(row));
    }
    return out;
  }

  /** {@code row} with only the fields of {@link KeyView#KEY_VIEW_BASIC}. */
  static ByteString basic(ByteString row) {
    byte[] out = new byte[row.size()];
    int length = 0;
    try {
      CodedInputStream in = row.newCodedInput();
      while (true) {
        int start = in.getTotalBytesRead();
        int tag = in.readTag();
        if (tag == 0) {
          break;
        }
        boolean keep;
        switch (WireFormat.getTagFieldNumber(tag)) {
          case KeyInfo.KEY_NAME_FIELD_NUMBER:
          case KeyInfo.DATA_SIZE_FIELD_NUMBER:
          case KeyInfo.CREATION_TIME_FIELD_NUMBER:
          case KeyInfo.MODIFICATION_TIME_FIELD_NUMBER:
          case KeyInfo.OWNER_FIELD_NUMBER:
          case KeyInfo.REPLICATION_CONFIG_FIELD_NUMBER:
            keep = true;
            in.skipField(tag);
            break;
          case KeyInfo.METADATA_FIELD_NUMBER:
            if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
              keep = isETag(in.readBytes());
            } else {
              keep = false;
              in.skipField(tag);
            }
            break;
          default:
            keep = false;
            in.skipField(tag);
        }
        if (keep) {
          int end = in.getTotalBytesRead();
          row.copyTo(out, start, length, end - start);
          length += end - start;
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("A stored KeyInfo row does not skim: " + e.getMessage(), e);
    }
    return UnsafeByteOperations.unsafeWrap(out, 0, length);
  }

  /** Whether a map entry's encoding has the key {@code ETag} (field 1 of the entry). */
  private static boolean isETag(ByteString entry) throws IOException {
    CodedInputStream in = entry.newCodedInput();
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
