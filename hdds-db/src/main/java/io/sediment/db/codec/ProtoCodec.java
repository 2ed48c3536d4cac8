package io.sediment.db.codec;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import java.io.IOException;
import java.util.Objects;

/**
 * Any protobuf message in its standard wire format. Encoding into a {@link CodecBuffer} sizes
 * the buffer from {@code getSerializedSize()} and writes in place; decoding parses straight from
 * the buffer. Bytes that do not parse throw {@link CodecException}. Not a key codec: protobuf
 * encoding is not order-preserving.
 */
public final class ProtoCodec<M extends Message> implements Codec<M> {

  private final Class<M> type;
  private final Parser<M> parser;

  private ProtoCodec(Class<M> type, Parser<M> parser) {
    this.type = type;
    this.parser = parser;
  }

  /** A codec for messages of {@code type}, parsed by {@code parser} (e.g. {@code Foo.parser()}). */
  public static <M extends Message> ProtoCodec<M> of(Class<M> type, Parser<M> parser) {
    return new ProtoCodec<>(Objects.requireNonNull(type), Objects.requireNonNull(parser));
  }

  @Override
  public Class<M> getTypeClass() {
    return type;
  }

  @Override
  public byte[] toPersistedFormat(M object) {
    checkSize(Objects.requireNonNull(object, "message").getSerializedSize());
    return object.toByteArray();
  }

  /** A message of 2 GiB or more (its int size wrapped negative) cannot be stored. */
  private int checkSize(int size) {
    if (size < 0) {
      throw new CodecException("Cannot encode " + type.getSimpleName()
          + ": its encoding is 2 GiB or larger");
    }
    return size;
  }

  @Override
  public M fromPersistedFormat(byte[] bytes) {
    try {
      return parser.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new CodecException("Not a valid " + type.getSimpleName() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void encodeInto(M object, CodecBuffer buffer) {
    int size = checkSize(Objects.requireNonNull(object, "message").getSerializedSize());
    try {
      CodedOutputStream out = CodedOutputStream.newInstance(buffer.writableTail(size));
      object.writeTo(out);
      out.checkNoSpaceLeft();
      buffer.advanceWriter(size);
    } catch (IOException | IllegalStateException | IllegalArgumentException e) {
      // IllegalArgumentException: the buffer cannot grow by size bytes (near 2 GiB in all).
      throw new CodecException("Cannot encode " + type.getSimpleName() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public M decode(CodecBuffer buffer) {
    try {
      return parser.parseFrom(buffer.asReadOnlyByteBuffer());
    } catch (InvalidProtocolBufferException e) {
      throw new CodecException("Not a valid " + type.getSimpleName() + ": " + e.getMessage(), e);
    }
  }
}
