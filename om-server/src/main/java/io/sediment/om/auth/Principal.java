package io.sediment.om.auth;

import java.util.Objects;
import java.util.Set;

/**
 * Who a call comes from: an authenticated user name and the groups it belongs to, or
 * {@link #ANONYMOUS} when the server authenticates no one.
 *
 * <p>Immutable; equal when name and groups are equal.
 *
 * @param name the user name (for mutual TLS the mapped certificate subject, for a bearer token the
 *     principal the token was created for); never empty
 * @param groups the groups the user is in (unmodifiable, possibly empty)
 */
public record Principal(String name, Set<String> groups) {

  /** The caller of a server that authenticates no one. */
  public static final Principal ANONYMOUS = new Principal("anonymous", Set.of());

  /**
   * @throws IllegalArgumentException if the name is empty
   */
  public Principal {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("A principal needs a name");
    }
    groups = Set.copyOf(groups);
  }

  /** A principal in no group. */
  public static Principal user(String name) {
    return new Principal(name, Set.of());
  }

  /** Whether this is {@link #ANONYMOUS} (identity, not name: a user may be called "anonymous"). */
  public boolean isAnonymous() {
    return this == ANONYMOUS;
  }
}
