package io.sediment.om.authz;

import io.sediment.om.auth.Principal;
import io.sediment.proto.om.AclIdentityType;
import io.sediment.proto.om.AclRight;
import io.sediment.proto.om.AclScope;
import io.sediment.proto.om.OmAcl;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What one record (a volume, bucket, key, file or directory) grants: its owner and its
 * ACCESS-scope ACL entries. DEFAULT-scope entries are only inherited by what is created inside,
 * so they grant nothing here.
 *
 * <p>Ozone's native model: the owner holds every right; an entry applies to a caller when it is
 * {@code ACL_USER} naming the caller, {@code ACL_GROUP} naming one of its groups,
 * {@code ACL_WORLD} (every authenticated caller) or {@code ACL_ANONYMOUS} (only
 * {@link Principal#ANONYMOUS}); an applying entry grants a right when its bit set holds
 * {@code ACL_ALL} or, without {@code ACL_NONE}, the right's bit. Entries only add: no entry takes
 * away what another grants. {@link Principal#ANONYMOUS} is never an owner and matches no user,
 * group or world entry.
 *
 * <p>Immutable and thread-safe.
 */
public final class Grants {

  private static final int ALL = 1 << AclRight.ACL_ALL_VALUE;
  private static final int NONE = 1 << AclRight.ACL_NONE_VALUE;

  /** One ACCESS entry, parsed. */
  private record Entry(AclIdentityType type, String name, int rights) {}

  private final String owner;
  private final List<Entry> entries;

  private Grants(String owner, List<Entry> entries) {
    this.owner = owner;
    this.entries = entries;
  }

  /**
   * The grants of a record with {@code owner} (empty: none) and {@code acls} (entries of the
   * DEFAULT scope, of an unknown identity type, or granting nothing are dropped).
   */
  public static Grants of(String owner, List<OmAcl> acls) {
    Objects.requireNonNull(owner, "owner");
    List<Entry> parsed = new ArrayList<>(acls.size());
    for (OmAcl a : acls) {
      int rights = a.getRights();
      boolean grantsSomething = (rights & ALL) != 0 || ((rights & NONE) == 0 && rights != 0);
      if (a.getScope() == AclScope.ACL_ACCESS && grantsSomething
          && a.getType() != AclIdentityType.ACL_IDENTITY_UNSPECIFIED
          && a.getType() != AclIdentityType.UNRECOGNIZED) {
        parsed.add(new Entry(a.getType(), a.getName(), (rights & ALL) != 0 ? ALL : rights));
      }
    }
    return new Grants(owner, List.copyOf(parsed));
  }

  /** The owner's name, or empty when the record names none. */
  public String owner() {
    return owner;
  }

  /** Whether {@code p} owns the record (never {@link Principal#ANONYMOUS}). */
  public boolean ownedBy(Principal p) {
    return !p.isAnonymous() && !owner.isEmpty() && owner.equals(p.name());
  }

  /**
   * Whether the record grants {@code right} to {@code p}: it is the owner or an entry applies.
   *
   * @param right one of the rights READ to WRITE_ACL
   * @throws IllegalArgumentException for ACL_ALL, ACL_NONE or an unspecified right: a check asks
   *     for one right
   */
  public boolean grants(Principal p, AclRight right) {
    int bit = bitOf(right);
    if (ownedBy(p)) {
      return true;
    }
    for (Entry e : entries) {
      if (((e.rights & ALL) != 0 || (e.rights & bit) != 0) && applies(e, p)) {
        return true;
      }
    }
    return false;
  }

  private static boolean applies(Entry e, Principal p) {
    return switch (e.type) {
      case ACL_USER -> !p.isAnonymous() && e.name.equals(p.name());
      case ACL_GROUP -> !p.isAnonymous() && p.groups().contains(e.name);
      case ACL_WORLD -> !p.isAnonymous();
      case ACL_ANONYMOUS -> p.isAnonymous();
      case ACL_IDENTITY_UNSPECIFIED, UNRECOGNIZED -> false;
    };
  }

  static int bitOf(AclRight right) {
    int n = right.getNumber();
    if (n < AclRight.ACL_READ_VALUE || n > AclRight.ACL_WRITE_ACL_VALUE) {
      throw new IllegalArgumentException("An access check asks for one right, not " + right);
    }
    return 1 << n;
  }
}
