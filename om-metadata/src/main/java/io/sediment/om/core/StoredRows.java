package io.sediment.om.core;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.UnsafeByteOperations;
import io.sediment.db.codec.CodecException;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.proto.om.KeyInfo;
import java.io.IOException;
import java.util.List;

/**
 * Stored protobuf rows handed on as they are, for a read that only forwards them (a lookup, a
 * listing page): a key then costs no parse and no re-encoding on the server. Stateless.
 */
public final class StoredRows {

  private StoredRows() {
  }

  /**
   * {@code row} as a ByteString, after checking that its top level is well-formed protobuf
   * (every tag, varint and length within the bytes). Fields are skipped, not decoded: a string
   * that is not UTF-8 or a malformed nested message passes here and fails the reader's parse.
   * The row is wrapped, not copied: it must be an array no one writes again (as RocksDB's gets
   * and iterators return a new one for each value).
   *
   * @param what the row's message type, for the error
   * @throws CodecException if the row does not skim as a message
   */
  public static ByteString wellFormed(byte[] row, String what) {
    try {
      CodedInputStream in = CodedInputStream.newInstance(row);
      in.skipMessage();
      // skipMessage also stops at an end-group tag, which a whole message never has.
      in.checkLastTagWas(0);
    } catch (IOException e) {
      throw new CodecException("Not a valid " + what + ": " + e.getMessage(), e);
    }
    return UnsafeByteOperations.unsafeWrap(row);
  }

  /**
   * {@code rows} parsed as {@link KeyInfo}s, in order.
   *
   * @throws CodecException if a row does not parse
   */
  public static List<KeyInfo> keyInfos(List<ByteString> rows) {
    return rows.stream()
        .map(b -> OmDBDefinition.KEY_TABLE.valueCodec().fromPersistedFormat(b.toByteArray()))
        .toList();
  }
}
