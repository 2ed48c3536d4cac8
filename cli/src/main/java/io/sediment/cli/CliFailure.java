package io.sediment.cli;

/** A command failed for a reason the operator can act on; the message says what (exit code 1). */
final class CliFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CliFailure(String message) {
    super(message);
  }

  CliFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
