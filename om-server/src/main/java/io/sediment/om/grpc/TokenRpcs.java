package io.sediment.om.grpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.grpc.Status;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.auth.Administrators;
import io.sediment.om.auth.BearerToken;
import io.sediment.om.auth.CallPrincipal;
import io.sediment.om.auth.Principal;
import io.sediment.om.core.OmException;
import io.sediment.om.requests.WritePath;
import io.sediment.proto.om.AuthToken;
import io.sediment.proto.om.CreateTokenEntry;
import io.sediment.proto.om.CreateTokenRequest;
import io.sediment.proto.om.CreateTokenResponse;
import io.sediment.proto.om.ListTokensRequest;
import io.sediment.proto.om.ListTokensResponse;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.RevokeTokenRequest;
import io.sediment.proto.om.RevokeTokenResponse;
import io.sediment.proto.om.TokenInfo;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The token RPCs of AdminService. Creating a token decides its id, salt and secret here (on the
 * leader of a replicated group, before the entry is appended); the write carries only the salt and
 * the secret's hash, goes through the server's {@link WritePath} like every write (so every
 * replica holds the token), and the token's text is answered once. Revocation is a write too.
 * When the server has administrators, only they may call these.
 *
 * <p>Thread-safe.
 */
public final class TokenRpcs {

  private static final Logger LOG = LoggerFactory.getLogger(TokenRpcs.class);

  private final OmMetadataStore store;
  private final WritePath writes;
  private final Administrators administrators;

  /**
   * @param writes where the writes go (the store itself, or the replicated log)
   * @param administrators who may call; {@code null}: everyone (a server that checks nothing)
   */
  public TokenRpcs(OmMetadataStore store, WritePath writes, Administrators administrators) {
    this.store = Objects.requireNonNull(store, "store");
    this.writes = Objects.requireNonNull(writes, "writes");
    this.administrators = administrators;
  }

  /** CreateToken: INVALID_ARGUMENT for an empty principal or a negative ttl, nothing written. */
  public CreateTokenResponse create(CreateTokenRequest req) {
    requireAdministrator();
    if (req.getPrincipal().isEmpty()) {
      throw OmException.invalid("A token needs a principal");
    }
    if (req.getTtlMillis() < 0) {
      throw OmException.invalid("A token's ttl must not be negative: " + req.getTtlMillis());
    }
    BearerToken.Issued issued = BearerToken.issue();
    TokenInfo info = writes.write(OmLogEntry.newBuilder().setCreateToken(
        CreateTokenEntry.newBuilder().setId(issued.id()).setPrincipal(req.getPrincipal())
            .setSalt(ByteString.copyFrom(issued.salt()))
            .setHash(ByteString.copyFrom(issued.hash()))
            .setTtlMillis(req.getTtlMillis())), TokenInfo.parser());
    LOG.info("Created bearer token {} for '{}' (by '{}')", info.getId(), info.getPrincipal(),
        CallPrincipal.current().name());
    return CreateTokenResponse.newBuilder().setToken(issued.token()).setInfo(info).build();
  }

  /** RevokeToken: NOT_FOUND for an unknown id. */
  public RevokeTokenResponse revoke(RevokeTokenRequest req) {
    requireAdministrator();
    TokenInfo info = writes.write(OmLogEntry.newBuilder().setRevokeToken(req), TokenInfo.parser());
    LOG.info("Revoked bearer token {} of '{}' (by '{}')", info.getId(), info.getPrincipal(),
        CallPrincipal.current().name());
    return RevokeTokenResponse.newBuilder().setInfo(info).build();
  }

  /** ListTokens: a page of tokens in id order, never a hash. */
  public ListTokensResponse list(ListTokensRequest req) {
    requireAdministrator();
    int cap = store.options().maxListSize();
    int max = req.getMaxResults() <= 0 ? cap : Math.min(req.getMaxResults(), cap);
    List<AuthToken> rows = store.authTokens().list(req.getStartAfter(), max);
    ListTokensResponse.Builder out = ListTokensResponse.newBuilder();
    rows.forEach(r -> out.addTokens(info(r)));
    return out.setTruncated(rows.size() == max && !rows.isEmpty()
        && !store.authTokens().list(rows.get(rows.size() - 1).getId(), 1).isEmpty()).build();
  }

  /**
   * Applies a token log entry ({@code create_token} or {@code revoke_token}) to {@code store} and
   * returns the token's {@link TokenInfo}.
   *
   * @throws OmException as the store rejects it (nothing changed)
   * @throws IllegalArgumentException for any other entry
   */
  public static Message apply(OmMetadataStore store, OmLogEntry entry) {
    if (entry.hasCreateToken()) {
      CreateTokenEntry c = entry.getCreateToken();
      return info(store.authTokens().create(c.getId(), c.getPrincipal(),
          c.getSalt().toByteArray(), c.getHash().toByteArray(),
          c.getTtlMillis() == 0 ? null : Duration.ofMillis(c.getTtlMillis())));
    }
    if (entry.hasRevokeToken()) {
      return info(store.authTokens().revoke(entry.getRevokeToken().getId()));
    }
    throw new IllegalArgumentException("Not a token entry: " + entry.getRequestCase());
  }

  /** What an administrator sees of a token: no salt, no hash. */
  public static TokenInfo info(AuthToken row) {
    return TokenInfo.newBuilder().setId(row.getId()).setPrincipal(row.getPrincipal())
        .setCreatedMillis(row.getCreatedMillis()).setExpiresMillis(row.getExpiresMillis())
        .setRevoked(row.getRevoked()).build();
  }

  private void requireAdministrator() {
    Principal p = CallPrincipal.current();
    if (administrators != null && !administrators.contains(p)) {
      throw Status.PERMISSION_DENIED.withDescription("'" + p.name() + "' is not an "
          + "administrator: managing tokens is for administrators only").asRuntimeException();
    }
  }
}
