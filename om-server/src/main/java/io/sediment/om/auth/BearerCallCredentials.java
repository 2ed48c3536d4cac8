package io.sediment.om.auth;

import com.google.common.net.HostAndPort;
import com.google.common.net.InetAddresses;
import io.grpc.CallCredentials;
import io.grpc.Metadata;
import io.grpc.SecurityLevel;
import io.grpc.Status;
import java.util.concurrent.Executor;

/**
 * A client's bearer token, sent with every call as the header
 * {@code authorization: Bearer <token>}. Over a connection without privacy (plaintext) it is sent
 * only when the call's authority is a loopback one ({@code localhost} or a loopback IP address);
 * otherwise the call fails UNAUTHENTICATED without sending it.
 *
 * <p>Immutable and thread-safe; {@link #toString()} never shows the token.
 */
public final class BearerCallCredentials extends CallCredentials {

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of(Authenticator.AUTHORIZATION_HEADER, Metadata.ASCII_STRING_MARSHALLER);

  private final String token;

  /**
   * @param token the token's text ({@code sdt_<id>_<secret>})
   * @throws IllegalArgumentException if it is empty or not one word of printable ASCII
   */
  public BearerCallCredentials(String token) {
    if (token == null || token.isBlank() || token.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
      throw new IllegalArgumentException("A bearer token is one word of printable ASCII");
    }
    this.token = token;
  }

  @Override
  public void applyRequestMetadata(RequestInfo info, Executor appExecutor,
      MetadataApplier applier) {
    if (info.getSecurityLevel() != SecurityLevel.PRIVACY_AND_INTEGRITY
        && !loopback(info.getAuthority())) {
      applier.fail(Status.UNAUTHENTICATED.withDescription("Refusing to send a bearer token to "
          + info.getAuthority() + " without TLS"));
      return;
    }
    Metadata headers = new Metadata();
    headers.put(AUTHORIZATION, "Bearer " + token);
    applier.apply(headers);
  }

  /** Whether {@code authority} ({@code host[:port]}) names this machine without a lookup. */
  static boolean loopback(String authority) {
    String host;
    try {
      host = HostAndPort.fromString(authority).getHost();
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    return InetAddresses.isInetAddress(host) && InetAddresses.forString(host).isLoopbackAddress();
  }

  @Override
  public String toString() {
    return "BearerCallCredentials[<token>]";
  }
}
