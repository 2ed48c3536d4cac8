package io.sediment.om.auth;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.OmMetadataStore;
import io.sediment.proto.om.AuthToken;
import java.time.Clock;
import java.util.Objects;

/**
 * Checks bearer tokens against the tokens a store holds ({@link
 * io.sediment.om.credentials.AuthTokens}): one point read of the token's row and one SHA-256 per
 * call, compared in constant time. Nothing is cached, so a revocation applied to the store refuses
 * the token from the next call on.
 *
 * <p>Thread-safe.
 */
public final class TokenVerifier {

  private final OmMetadataStore store;
  private final Clock clock;

  /** Over {@code store}'s tokens, expiring them by {@code clock}. */
  public TokenVerifier(OmMetadataStore store, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * The principal {@code token} (its text, {@code sdt_<id>_<secret>}) was created for.
   *
   * @throws StatusRuntimeException UNAUTHENTICATED if the token is malformed, unknown, has another
   *     secret, is revoked or has expired (the message says which of the last two, never more
   *     about a token the caller does not hold)
   */
  public String verify(String token) {
    BearerToken t = BearerToken.parse(token);
    if (t == null) {
      throw unauthenticated("malformed bearer token (expected sdt_<id>_<secret>)");
    }
    AuthToken row = store.authTokens().get(t.id());
    if (row == null || !t.matches(row.getSalt().toByteArray(), row.getHash().toByteArray())) {
      throw unauthenticated("unknown bearer token or wrong secret");
    }
    if (row.getRevoked()) {
      throw unauthenticated("bearer token " + t.id() + " was revoked");
    }
    if (row.getExpiresMillis() != 0 && clock.millis() >= row.getExpiresMillis()) {
      throw unauthenticated("bearer token " + t.id() + " has expired");
    }
    return row.getPrincipal();
  }

  static StatusRuntimeException unauthenticated(String why) {
    return Status.UNAUTHENTICATED.withDescription(why).asRuntimeException();
  }
}
