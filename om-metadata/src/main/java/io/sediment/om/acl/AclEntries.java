package io.sediment.om.acl;

import io.sediment.om.core.OmException;
import io.sediment.proto.om.AclIdentityType;
import io.sediment.proto.om.AclScope;
import io.sediment.proto.om.OmAcl;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lists of {@link OmAcl} entries as records store them: checked, merged and in canonical form.
 *
 * <p>Canonical form: one entry per identity (type and name) and scope, its rights in
 * {@link AclRights#canonical} form and never empty; entries ordered by scope (ACCESS first), then
 * identity type (USER, GROUP, WORLD, ANONYMOUS), then name (by {@link String#compareTo}). Two
 * lists granting the same rights have the same canonical form, so replicas and tests can compare
 * them with {@code equals}.
 *
 * <p>Stateless; thread-safe.
 */
public final class AclEntries {

  /** The most entries one volume, bucket, key or directory holds. */
  public static final int MAX_ENTRIES = 1000;
  /** The longest user or group name, in characters. */
  public static final int MAX_NAME_LENGTH = 256;

  private static final Comparator<OmAcl> ORDER = Comparator
      .comparingInt(OmAcl::getScopeValue)
      .thenComparingInt(OmAcl::getTypeValue)
      .thenComparing(OmAcl::getName);

  private AclEntries() {
  }

  /**
   * Checks one entry a caller gives: a known identity type, a name for USER and GROUP (without
   * ':', ',', '[', ']', white space or control characters, at most {@value #MAX_NAME_LENGTH}
   * characters) and none for WORLD and ANONYMOUS, only known right bits, a known scope, and
   * DEFAULT scope only where {@code defaultsAllowed} (volumes and buckets).
   *
   * @throws OmException INVALID_ARGUMENT naming the entry and what is wrong with it
   */
  public static void check(OmAcl acl, boolean defaultsAllowed) {
    String what = "ACL entry " + describe(acl);
    AclIdentityType type = acl.getType();
    switch (type) {
      case ACL_USER, ACL_GROUP -> checkName(what, acl.getName());
      case ACL_WORLD, ACL_ANONYMOUS -> {
        if (!acl.getName().isEmpty()) {
          throw OmException.invalid(what + ": " + AclText.typeWord(type)
              + " entries take no name (write " + AclText.typeWord(type) + "::RIGHTS)");
        }
      }
      default -> throw OmException.invalid(what + ": identity type must be user, group, world "
          + "or anonymous, not " + acl.getTypeValue());
    }
    if ((acl.getRights() & ~AclRights.KNOWN_BITS) != 0) {
      throw OmException.invalid(what + ": unknown right bits 0x"
          + Integer.toHexString(acl.getRights() & ~AclRights.KNOWN_BITS));
    }
    if (acl.getScope() == AclScope.UNRECOGNIZED) {
      throw OmException.invalid(what + ": scope must be ACCESS or DEFAULT, not "
          + acl.getScopeValue());
    }
    if (acl.getScope() == AclScope.ACL_DEFAULT && !defaultsAllowed) {
      throw OmException.invalid(what + ": keys, files and directories hold ACCESS entries only; "
          + "DEFAULT entries belong on a volume or bucket");
    }
  }

  /** {@link #check} for each entry. */
  public static void checkAll(Collection<OmAcl> acls, boolean defaultsAllowed) {
    for (OmAcl a : acls) {
      check(a, defaultsAllowed);
    }
  }

  private static void checkName(String what, String name) {
    if (name.isEmpty()) {
      throw OmException.invalid(what + ": user and group entries need a name");
    }
    if (name.length() > MAX_NAME_LENGTH) {
      throw OmException.invalid(what + ": the name is longer than " + MAX_NAME_LENGTH
          + " characters");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == ':' || c == ',' || c == '[' || c == ']' || Character.isWhitespace(c)
          || Character.isISOControl(c)) {
        throw OmException.invalid(what + ": a name must not contain ':', ',', '[', ']', white "
            + "space or control characters");
      }
    }
  }

  /** The entries of {@code acls} in canonical form (see {@link AclEntries}); unchecked. */
  public static List<OmAcl> canonical(Collection<OmAcl> acls) {
    Map<OmAcl, Integer> rights = new LinkedHashMap<>();
    for (OmAcl a : acls) {
      rights.merge(identity(a), AclRights.expand(a.getRights()), (x, y) -> x | y);
    }
    List<OmAcl> out = new ArrayList<>(rights.size());
    rights.forEach((id, bits) -> {
      if (bits != 0) {
        out.add(id.toBuilder().setRights(AclRights.canonical(bits)).build());
      }
    });
    out.sort(ORDER);
    return List.copyOf(out);
  }

  /** {@code current} with each entry of {@code adding} granted too (a union per identity). */
  public static List<OmAcl> add(Collection<OmAcl> current, Collection<OmAcl> adding) {
    List<OmAcl> all = new ArrayList<>(current);
    all.addAll(adding);
    return canonical(all);
  }

  /**
   * {@code current} with the rights of each entry of {@code removing} taken away from the entry of
   * the same identity and scope (removing ALL takes every right); entries left with no right are
   * dropped; an entry of {@code removing} that matches none changes nothing.
   */
  public static List<OmAcl> remove(Collection<OmAcl> current, Collection<OmAcl> removing) {
    Map<OmAcl, Integer> taken = new LinkedHashMap<>();
    for (OmAcl r : removing) {
      taken.merge(identity(r), AclRights.expand(r.getRights()), (x, y) -> x | y);
    }
    List<OmAcl> left = new ArrayList<>();
    for (OmAcl a : canonical(current)) {
      int bits = AclRights.expand(a.getRights()) & ~taken.getOrDefault(identity(a), 0);
      left.add(a.toBuilder().setRights(bits).build());
    }
    return canonical(left);
  }

  /** {@code acl} with no rights: the key under which entries of one identity and scope merge. */
  private static OmAcl identity(OmAcl acl) {
    return acl.toBuilder().setRights(0).build();
  }

  /** The text form of {@code acl} ({@link AclText#format}), or a raw form if it has none. */
  private static String describe(OmAcl acl) {
    try {
      return "'" + AclText.format(acl) + "'";
    } catch (IllegalArgumentException e) {
      return "{type " + acl.getTypeValue() + ", name '" + acl.getName() + "', rights 0x"
          + Integer.toHexString(acl.getRights()) + ", scope " + acl.getScopeValue() + "}";
    }
  }
}
