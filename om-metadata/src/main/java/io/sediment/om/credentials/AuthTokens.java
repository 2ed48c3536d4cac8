package io.sediment.om.credentials;

import static io.sediment.om.core.OmDBDefinition.AUTH_TOKEN_TABLE;

import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmException.Code;
import io.sediment.proto.om.AuthToken;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The bearer tokens a server accepts: rows of authTokenTable keyed by token id. A row holds who
 * the token is for and a salted hash of its secret, never the secret itself; the server that
 * makes a token decides id, salt and secret, and only the hash reaches the store. Every write is
 * one {@link OmContext#write} transaction that checks first and changes nothing when it throws;
 * its time is the write's (a replicated log entry's when applying one).
 *
 * <p>Thread-safe.
 */
public final class AuthTokens {

  /** A token id: 8 to 64 lower-case hex digits. */
  private static final Pattern ID = Pattern.compile("[0-9a-f]{8,64}");
  private static final int MAX_PRINCIPAL_CHARS = 255;

  private final OmContext ctx;

  public AuthTokens(OmContext ctx) {
    this.ctx = Objects.requireNonNull(ctx, "ctx");
  }

  /**
   * Stores a new token for {@code principal}, created now and expiring {@code ttl} later
   * ({@code null}: never).
   *
   * @throws OmException INVALID_ARGUMENT for a malformed id, an empty or over-long principal
   *     (or one with control characters), a salt shorter than 16 bytes, a hash that is not 32
   *     bytes or a ttl that is not positive; ALREADY_EXISTS if the id is taken
   */
  public AuthToken create(String id, String principal, byte[] salt, byte[] hash, Duration ttl) {
    checkId(id);
    checkPrincipal(principal);
    if (salt.length < 16) {
      throw OmException.invalid("A token's salt needs at least 16 bytes: " + salt.length);
    }
    if (hash.length != 32) {
      throw OmException.invalid("A token's hash is SHA-256 (32 bytes): " + hash.length);
    }
    if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
      throw OmException.invalid("A token's lifetime must be positive: " + ttl);
    }
    return ctx.write(txn -> {
      Table<String, AuthToken> table = ctx.table(AUTH_TOKEN_TABLE);
      if (table.isExist(id)) {
        throw new OmException(Code.ALREADY_EXISTS, "Token '" + id + "' already exists");
      }
      long now = txn.now();
      AuthToken row = AuthToken.newBuilder().setId(id).setPrincipal(principal)
          .setSalt(com.google.protobuf.ByteString.copyFrom(salt))
          .setHash(com.google.protobuf.ByteString.copyFrom(hash))
          .setCreatedMillis(now)
          .setExpiresMillis(ttl == null ? 0 : Math.addExact(now, ttl.toMillis()))
          .build();
      table.putWithBatch(txn.batch(), id, row);
      return row;
    });
  }

  /**
   * Revokes token {@code id}: presenting it fails from the moment this returns. Revoking a
   * revoked token changes nothing and returns its row.
   *
   * @throws OmException INVALID_ARGUMENT for a malformed id, NOT_FOUND for an unknown one
   */
  public AuthToken revoke(String id) {
    checkId(id);
    return ctx.write(txn -> {
      Table<String, AuthToken> table = ctx.table(AUTH_TOKEN_TABLE);
      AuthToken row = table.get(id);
      if (row == null) {
        throw new OmException(Code.NOT_FOUND, "No token '" + id + "'");
      }
      if (row.getRevoked()) {
        return row;
      }
      AuthToken revoked = row.toBuilder().setRevoked(true).setRevokedMillis(txn.now()).build();
      table.putWithBatch(txn.batch(), id, revoked);
      return revoked;
    });
  }

  /** Token {@code id}'s row (one point read), or {@code null} if there is none or the id is malformed. */
  public AuthToken get(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      return null;
    }
    return ctx.table(AUTH_TOKEN_TABLE).get(id);
  }

  /**
   * Up to {@code max} tokens (capped by the store's page size) with ids after {@code startAfter}
   * (exclusive; empty or {@code null} for the first), in id order.
   *
   * @throws OmException INVALID_ARGUMENT for a negative {@code max} (0 gives an empty page)
   */
  public List<AuthToken> list(String startAfter, int max) {
    int n = ctx.checkPageSize("A token page size", max);
    List<AuthToken> out = new ArrayList<>();
    try (TableIterator<String, KeyValue<String, AuthToken>> it =
        ctx.table(AUTH_TOKEN_TABLE).iterator()) {
      if (startAfter == null || startAfter.isEmpty()) {
        it.seekToFirst();
      } else {
        it.seekAfter(startAfter);
      }
      while (out.size() < n && it.hasNext()) {
        out.add(it.next().getValue());
      }
    }
    return out;
  }

  private static void checkId(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw OmException.invalid("A token id is 8 to 64 lower-case hex digits: '" + id + "'");
    }
  }

  private static void checkPrincipal(String principal) {
    if (principal == null || principal.isEmpty()) {
      throw OmException.invalid("A token needs a principal");
    }
    if (principal.length() > MAX_PRINCIPAL_CHARS) {
      throw OmException.invalid("A principal has at most " + MAX_PRINCIPAL_CHARS
          + " characters: " + principal.length());
    }
    if (principal.chars().anyMatch(Character::isISOControl)) {
      throw OmException.invalid("A principal has no control characters");
    }
  }
}
