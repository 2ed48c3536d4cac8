package io.sediment.om.core;

import java.util.Objects;

/**
 * A rejected om-metadata operation. Every operation that throws it leaves the store unchanged:
 * arguments and preconditions are checked before anything is written, and each write is one
 * atomic batch.
 */
public final class OmException extends RuntimeException {

  /** What went wrong, in the spirit of gRPC status codes (the gRPC server maps them one to one). */
  public enum Code {
    /** A malformed argument: a bad name, key, page size or continuation token. */
    INVALID_ARGUMENT,
    /** The volume, bucket, key or open-key session does not exist. */
    NOT_FOUND,
    /** The volume or bucket to create exists already. */
    ALREADY_EXISTS,
    /** The operation is valid but not in the current state, e.g. deleting a non-empty bucket. */
    FAILED_PRECONDITION,
    /** Not supported (yet) for this bucket layout. */
    UNIMPLEMENTED,
    /**
     * A limit was hit: too many open keys, parts or pending writes, or the store's disk is full
     * (the message names the directory and the free space writes need; they resume by themselves
     * once it is free).
     */
    RESOURCE_EXHAUSTED,
    /** The store is closing or closed; retry against a running instance. */
    UNAVAILABLE,
    /** A broken invariant inside the store, or a storage failure. */
    INTERNAL
  }

  private final Code code;
  private final String detail;

  public OmException(Code code, String message) {
    super(Objects.requireNonNull(code, "code") + ": " + message);
    this.code = code;
    this.detail = message;
  }

  public OmException(Code code, String message, Throwable cause) {
    super(Objects.requireNonNull(code, "code") + ": " + message, cause);
    this.code = code;
    this.detail = message;
  }

  public Code code() {
    return code;
  }

  /** The message without the code in front of it. */
  public String detail() {
    return detail;
  }

  public static OmException invalid(String message) {
    return new OmException(Code.INVALID_ARGUMENT, message);
  }

  public static OmException notFound(String message) {
    return new OmException(Code.NOT_FOUND, message);
  }

  /** NOT_FOUND for a missing volume, worded as every surface (gRPC, shell, Recon) shows it. */
  public static OmException volumeNotFound(String volume) {
    return notFound("Volume '" + volume + "' does not exist");
  }

  /** NOT_FOUND for a missing bucket of an existing volume, worded as {@link #volumeNotFound}. */
  public static OmException bucketNotFound(String volume, String bucket) {
    return notFound("Bucket '" + bucket + "' does not exist in volume '" + volume + "'");
  }
}
