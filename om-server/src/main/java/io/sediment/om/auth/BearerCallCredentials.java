package io.sediment.om.auth;

import io.grpc.CallCredentials;
import io.grpc.Metadata;
import io.grpc.SecurityLevel;
import io.grpc.Status;
import java.util.concurrent.Executor;

/**
 * A client's bearer token, sent with every call as the header
 * {@code authorization: Bearer <token>}. Over a connection without privacy (plaintext) it is sent
 * only to a loopback address ({@code allowPlaintext}); otherwise the call fails UNAUTHENTICATED
 * without sending it.
 *
 * <p>Immutable and thread-safe; {@link #toString()} never shows the token.
 */
public final class BearerCallCredentials extends CallCredentials {

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of(Authenticator.AUTHORIZATION_HEADER, Metadata.ASCII_STRING_MARSHALLER);

  private final String token;
  private final boolean allowPlaintext;

  /**
   * @param token the token's text ({@code sdt_<id>_<secret>})
   * @param allowPlaintext whether to send it over plaintext (only ever to a loopback target)
   */
  public BearerCallCredentials(String token, boolean allowPlaintext) {
    if (token == null || token.isBlank() || token.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
      throw new IllegalArgumentException("A bearer token is one word of printable ASCII");
    }
    this.token = token;
    this.allowPlaintext = allowPlaintext;
  }

  @Override
  public void applyRequestMetadata(RequestInfo info, Executor appExecutor,
      MetadataApplier applier) {
    if (info.getSecurityLevel() != SecurityLevel.PRIVACY_AND_INTEGRITY && !allowPlaintext) {
      applier.fail(Status.UNAUTHENTICATED.withDescription("Refusing to send a bearer token to "
          + info.getAuthority() + " without TLS"));
      return;
    }
    Metadata headers = new Metadata();
    headers.put(AUTHORIZATION, "Bearer " + token);
    applier.apply(headers);
  }

  @Override
  public String toString() {
    return "BearerCallCredentials[<token>]";
  }
}
