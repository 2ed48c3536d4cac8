package io.sediment.db.codec;

/**
 * A value or key could not be encoded or decoded: the bytes are corrupt or the object cannot be
 * represented. Raised by a table it names the table and the key.
 */
public class CodecException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CodecException(String message) {
    super(message);
  }

  public CodecException(String message, Throwable cause) {
    super(message, cause);
  }
}
