package io.sediment.recon;

/** A request Recon refuses: the HTTP status and a sentence for the caller (never a stack trace). */
final class ApiException extends RuntimeException {

  private final int status;

  ApiException(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  int status() {
    return status;
  }

  static ApiException badRequest(String message) {
    return new ApiException(400, message);
  }
}
