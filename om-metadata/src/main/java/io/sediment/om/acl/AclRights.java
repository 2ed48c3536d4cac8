package io.sediment.om.acl;

import io.sediment.proto.om.AclRight;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The rights of an {@link io.sediment.proto.om.OmAcl} as the bit set it stores (bit {@code n} set
 * when the {@link AclRight} numbered {@code n} is granted), converted from and to lists of rights,
 * and in the canonical form entries are stored in: either the seven single rights granted, or
 * {@code ALL} alone when all seven are; {@code NONE} is never stored (it grants nothing).
 *
 * <p>Stateless; thread-safe.
 */
public final class AclRights {

  /** The single rights, in number (and text form) order: READ .. WRITE_ACL. */
  public static final List<AclRight> SINGLE = List.of(AclRight.ACL_READ, AclRight.ACL_WRITE,
      AclRight.ACL_CREATE, AclRight.ACL_LIST, AclRight.ACL_DELETE, AclRight.ACL_READ_ACL,
      AclRight.ACL_WRITE_ACL);

  /** The bits of the seven single rights. */
  static final int SINGLE_BITS = bitsOf(SINGLE);
  /** The bit of ALL. */
  public static final int ALL = bit(AclRight.ACL_ALL);
  /** The bit of NONE. */
  public static final int NONE = bit(AclRight.ACL_NONE);
  /** Every bit a stored entry may carry: the single rights, ALL and NONE. */
  static final int KNOWN_BITS = SINGLE_BITS | ALL | NONE;

  private AclRights() {
  }

  /** The bit of {@code right}. */
  public static int bit(AclRight right) {
    if (right == AclRight.ACL_RIGHT_UNSPECIFIED || right == AclRight.UNRECOGNIZED) {
      throw new IllegalArgumentException("Not a right: " + right);
    }
    return 1 << right.getNumber();
  }

  /** The bit set granting each of {@code rights}. */
  public static int bitsOf(Collection<AclRight> rights) {
    int bits = 0;
    for (AclRight r : rights) {
      bits |= bit(r);
    }
    return bits;
  }

  /** The rights whose bits are set in {@code bits}, in number order (ALL and NONE included). */
  public static List<AclRight> rightsOf(int bits) {
    List<AclRight> rights = new ArrayList<>();
    for (AclRight r : AclRight.values()) {
      if (r != AclRight.UNRECOGNIZED && r != AclRight.ACL_RIGHT_UNSPECIFIED
          && (bits & bit(r)) != 0) {
        rights.add(r);
      }
    }
    return rights;
  }

  /**
   * Whether {@code bits} grants {@code right}: its own bit or ALL is set. ALL is granted only by
   * ALL (or by all seven single rights); NONE is never granted.
   */
  public static boolean grants(int bits, AclRight right) {
    if (right == AclRight.ACL_NONE) {
      return false;
    }
    int single = expand(bits);
    if (right == AclRight.ACL_ALL) {
      return single == SINGLE_BITS;
    }
    return (single & bit(right)) != 0;
  }

  /** The single rights {@code bits} grants: ALL expanded to all seven, NONE dropped. */
  static int expand(int bits) {
    return (bits & ALL) != 0 ? SINGLE_BITS : bits & SINGLE_BITS;
  }

  /**
   * The canonical form of the rights {@code bits} grants: ALL alone when all seven single rights
   * are granted, else the single rights (0 when nothing is).
   */
  public static int canonical(int bits) {
    int single = expand(bits);
    return single == SINGLE_BITS ? ALL : single;
  }
}
