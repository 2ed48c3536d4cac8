package io.sediment.om.fso;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.sediment.db.codec.Codec;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.codec.CodecException;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import java.io.IOException;

/**
 * Reads the {@link EntryAttributes} of a stored fileTable or directoryTable row in one walk of
 * its top-level fields, for listings that return a status per row: the six fields are read as
 * protobuf reads them (the last occurrence wins; a field with another wire type is skipped as
 * unknown, the owner must be valid UTF-8), every other field is skipped by protobuf's own
 * {@code skipField}, which refuses what a parse of the row's structure refuses (a truncated field,
 * a malformed varint, tag zero, an unknown wire type, an unclosed group). Nested messages (ACLs,
 * metadata, the replication config) are skipped whole, not checked inside. Read only: a view's
 * table decodes with it and never encodes. Stateless and thread-safe.
 */
final class EntryAttributesCodec implements Codec<EntryAttributes> {

  /** fileTable rows ({@code KeyInfo}). */
  static final EntryAttributesCodec FILE = new EntryAttributesCodec("KeyInfo",
      KeyInfo.DATA_SIZE_FIELD_NUMBER, KeyInfo.OBJECT_ID_FIELD_NUMBER,
      KeyInfo.PARENT_ID_FIELD_NUMBER, KeyInfo.CREATION_TIME_FIELD_NUMBER,
      KeyInfo.MODIFICATION_TIME_FIELD_NUMBER, KeyInfo.OWNER_FIELD_NUMBER);

  /** directoryTable rows ({@code DirectoryInfo}, which have no size). */
  static final EntryAttributesCodec DIRECTORY = new EntryAttributesCodec("DirectoryInfo",
      0, DirectoryInfo.OBJECT_ID_FIELD_NUMBER, DirectoryInfo.PARENT_ID_FIELD_NUMBER,
      DirectoryInfo.CREATION_TIME_FIELD_NUMBER, DirectoryInfo.MODIFICATION_TIME_FIELD_NUMBER,
      DirectoryInfo.OWNER_FIELD_NUMBER);

  private final String message;
  private final int sizeTag;
  private final int objectIdTag;
  private final int parentIdTag;
  private final int creationTimeTag;
  private final int modificationTimeTag;
  private final int ownerTag;

  /** @param size the size field's number; 0 for none */
  private EntryAttributesCodec(String message, int size, int objectId, int parentId,
      int creationTime, int modificationTime, int owner) {
    this.message = message;
    this.sizeTag = size == 0 ? -1 : varint(size);
    this.objectIdTag = varint(objectId);
    this.parentIdTag = varint(parentId);
    this.creationTimeTag = varint(creationTime);
    this.modificationTimeTag = varint(modificationTime);
    this.ownerTag = owner << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  }

  private static int varint(int field) {
    return field << 3 | WireFormat.WIRETYPE_VARINT;
  }

  @Override
  public Class<EntryAttributes> getTypeClass() {
    return EntryAttributes.class;
  }

  /** @throws UnsupportedOperationException always: the attributes are not a whole row */
  @Override
  public byte[] toPersistedFormat(EntryAttributes object) {
    throw new UnsupportedOperationException("EntryAttributes are read from rows, never written");
  }

  @Override
  public EntryAttributes fromPersistedFormat(byte[] bytes) {
    return read(CodedInputStream.newInstance(bytes));
  }

  @Override
  public EntryAttributes decode(CodecBuffer buffer) {
    return read(CodedInputStream.newInstance(buffer.asReadOnlyByteBuffer()));
  }

  private EntryAttributes read(CodedInputStream in) {
    long size = 0;
    long objectId = 0;
    long parentId = 0;
    long creationTime = 0;
    long modificationTime = 0;
    String owner = "";
    try {
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (tag == sizeTag) {
          size = in.readUInt64();
        } else if (tag == objectIdTag) {
          objectId = in.readUInt64();
        } else if (tag == parentIdTag) {
          parentId = in.readUInt64();
        } else if (tag == creationTimeTag) {
          creationTime = in.readUInt64();
        } else if (tag == modificationTimeTag) {
          modificationTime = in.readUInt64();
        } else if (tag == ownerTag) {
          owner = in.readStringRequireUtf8();
        } else if (!in.skipField(tag)) {
          throw new InvalidProtocolBufferException("an end-group tag at the top level");
        }
      }
    } catch (IOException e) {
      throw new CodecException("Not a valid " + message + ": " + e.getMessage(), e);
    }
    return new EntryAttributes(size, objectId, parentId, creationTime, modificationTime, owner);
  }
}
