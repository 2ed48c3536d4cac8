package io.sediment.om.auth;

import java.util.Collections;
import java.util.Set;

/**
 * The principals a server treats as administrators: they pass every access check, and only they
 * may call AdminService or create volumes.
 *
 * <p>Immutable.
 *
 * @param users user names that are administrators
 * @param groups groups whose members are administrators
 */
public record Administrators(Set<String> users, Set<String> groups) {

  public Administrators {
    users = Set.copyOf(users);
    groups = Set.copyOf(groups);
  }

  /** Administrators named by user name only. */
  public static Administrators users(String... names) {
    return new Administrators(Set.of(names), Set.of());
  }

  /** Whether {@code p} is an administrator: its name is a user here, or one of its groups is. */
  public boolean contains(Principal p) {
    return !p.isAnonymous()
        && (users.contains(p.name()) || !Collections.disjoint(groups, p.groups()));
  }
}
