package io.sediment.om.grpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import java.util.List;

/**
 * A message field (repeated or singular) whose elements are already encoded (stored rows), for a
 * response built without parsing them. Protobuf writes a message's unknown fields verbatim after
 * its known ones, and a reader puts a length-delimited field it knows into that field, in order,
 * wherever it appears: so a response whose field {@code n} is absent and whose unknown fields hold
 * the encodings as field {@code n} reaches the client exactly as if the field had been set, with
 * no server-side parse or re-encoding. The server-side message object shows the field empty; only
 * its encoding carries the elements. Stateless.
 */
final class EncodedFields {

  private EncodedFields() {
  }

  /**
   * The unknown-field set that encodes {@code element} as singular message field {@code number}
   * (one occurrence, which a reader parses into the field).
   */
  static UnknownFieldSet single(int number, ByteString element) {
    return repeated(number, List.of(element));
  }

  /** The unknown-field set that encodes {@code elements} as repeated field {@code number}. */
  static UnknownFieldSet repeated(int number, List<ByteString> elements) {
    UnknownFieldSet.Field.Builder field = UnknownFieldSet.Field.newBuilder();
    for (ByteString e : elements) {
      field.addLengthDelimited(e);
    }
    return UnknownFieldSet.newBuilder().addField(number, field.build()).build();
  }
}
