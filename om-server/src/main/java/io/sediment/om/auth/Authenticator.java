package io.sediment.om.auth;

import io.grpc.StatusRuntimeException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Locale;
import java.util.Objects;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Who a caller is, from the credentials it shows: a bearer token (the {@code authorization}
 * header, {@code Bearer <token>}) if it sends one, else the verified client certificate of its TLS
 * session (mutual TLS, {@link CertificatePrincipal}); the principal's groups come from a
 * {@link GroupMapping}. A token that is sent but bad is refused even when a certificate would be
 * accepted.
 *
 * <p>Thread-safe.
 */
public final class Authenticator {

  /** The gRPC header (and HTTP header) a bearer token travels in. */
  public static final String AUTHORIZATION_HEADER = "authorization";
  private static final String BEARER = "bearer ";

  private final TokenVerifier tokens;
  private final GroupMapping groups;

  /**
   * @param tokens verifies bearer tokens; {@code null} to accept client certificates only
   * @param groups the users' groups
   */
  public Authenticator(TokenVerifier tokens, GroupMapping groups) {
    this.tokens = tokens;
    this.groups = Objects.requireNonNull(groups, "groups");
  }

  /**
   * The caller of a call with {@code authorization} (the header's value, or {@code null}) over
   * {@code session} (its TLS session, or {@code null} over plaintext).
   *
   * @throws StatusRuntimeException UNAUTHENTICATED if a token is sent and refused (see
   *     {@link TokenVerifier#verify}), the header is not {@code Bearer <token>}, or there is neither
   *     a token nor a verified client certificate ("no credentials")
   */
  public Principal authenticate(String authorization, SSLSession session) {
    X509Certificate[] chain = null;
    if (authorization == null && session != null) {
      try {
        Certificate[] peer = session.getPeerCertificates();
        if (peer.length > 0 && peer[0] instanceof X509Certificate) {
          chain = new X509Certificate[] {(X509Certificate) peer[0]};
        }
      } catch (SSLPeerUnverifiedException noClientCertificate) {
        // no certificate: no credentials
      }
    }
    return authenticate(authorization, chain);
  }

  /**
   * As {@link #authenticate(String, SSLSession)}, given the client's verified certificate chain
   * (leaf first; {@code null} or empty for none), as an HTTPS server reports it.
   */
  public Principal authenticate(String authorization, X509Certificate[] verifiedChain) {
    if (authorization != null) {
      if (tokens == null) {
        throw TokenVerifier.unauthenticated("this server accepts no bearer tokens");
      }
      if (authorization.length() <= BEARER.length()
          || !authorization.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
        throw TokenVerifier.unauthenticated("the authorization header must be 'Bearer <token>'");
      }
      return groups.principal(tokens.verify(authorization.substring(BEARER.length()).strip()));
    }
    if (verifiedChain != null && verifiedChain.length > 0) {
      return groups.principal(CertificatePrincipal.nameOf(verifiedChain[0]));
    }
    // How a client sends either is the client's to say (the cli names its options).
    throw TokenVerifier.unauthenticated("no credentials: send a bearer token or a client "
        + "certificate");
  }
}
