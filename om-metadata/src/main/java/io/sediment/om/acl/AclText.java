package io.sediment.om.acl;

import io.sediment.proto.om.AclIdentityType;
import io.sediment.proto.om.AclRight;
import io.sediment.proto.om.AclScope;
import io.sediment.proto.om.OmAcl;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text form of an ACL entry, as Ozone's shell writes it: {@code TYPE:NAME:RIGHTS[SCOPE]},
 * for example {@code user:alice:rw}, {@code group:dev:rwl[DEFAULT]}, {@code world::r},
 * {@code anonymous::r}.
 *
 * <ul>
 *   <li>TYPE: {@code user}, {@code group}, {@code world} or {@code anonymous} (any case);
 *   <li>NAME: the user or group; empty for world and anonymous;
 *   <li>RIGHTS: one or more letters, {@code r} READ, {@code w} WRITE, {@code c} CREATE,
 *       {@code l} LIST, {@code d} DELETE, {@code x} READ_ACL, {@code y} WRITE_ACL, {@code a} ALL,
 *       {@code n} NONE;
 *   <li>SCOPE: optional, {@code [ACCESS]} (the default) or {@code [DEFAULT]} (any case).
 * </ul>
 *
 * <p>{@link #format} writes the type in lower case, the letters of the set bits in the order
 * above, and {@code [DEFAULT]} only for DEFAULT entries, so that
 * {@code parse(format(acl)).equals(acl)} for every valid entry. Several entries may be written
 * as one text separated by commas ({@link #parseList}).
 *
 * <p>Stateless; thread-safe.
 */
public final class AclText {

  private static final String LETTERS = "rwcldxyan";
  private static final List<AclRight> LETTER_RIGHTS = List.of(AclRight.ACL_READ,
      AclRight.ACL_WRITE, AclRight.ACL_CREATE, AclRight.ACL_LIST, AclRight.ACL_DELETE,
      AclRight.ACL_READ_ACL, AclRight.ACL_WRITE_ACL, AclRight.ACL_ALL, AclRight.ACL_NONE);

  private AclText() {
  }

  /**
   * Parses one entry. The entry is not checked beyond its form (see {@link AclEntries#check}).
   *
   * @throws IllegalArgumentException saying what is wrong and what the form is
   */
  public static OmAcl parse(String text) {
    String s = text.strip();
    AclScope scope = AclScope.ACL_ACCESS;
    if (s.endsWith("]")) {
      int open = s.lastIndexOf('[');
      if (open < 0) {
        throw bad(text, "a ']' without its '['");
      }
      String word = s.substring(open + 1, s.length() - 1).toUpperCase(Locale.ROOT);
      scope = switch (word) {
        case "ACCESS" -> AclScope.ACL_ACCESS;
        case "DEFAULT" -> AclScope.ACL_DEFAULT;
        default -> throw bad(text, "the scope must be [ACCESS] or [DEFAULT], not ["
            + s.substring(open + 1, s.length() - 1) + "]");
      };
      s = s.substring(0, open);
    }
    String[] parts = s.split(":", -1);
    if (parts.length != 3) {
      throw bad(text, "expected three ':'-separated parts, found " + parts.length);
    }
    AclIdentityType type = switch (parts[0].toLowerCase(Locale.ROOT)) {
      case "user" -> AclIdentityType.ACL_USER;
      case "group" -> AclIdentityType.ACL_GROUP;
      case "world" -> AclIdentityType.ACL_WORLD;
      case "anonymous" -> AclIdentityType.ACL_ANONYMOUS;
      default -> throw bad(text, "the type must be user, group, world or anonymous, not '"
          + parts[0] + "'");
    };
    String name = parts[1];
    boolean named = type == AclIdentityType.ACL_USER || type == AclIdentityType.ACL_GROUP;
    if (named && name.isEmpty()) {
      throw bad(text, parts[0] + " entries need a name");
    }
    if (!named && !name.isEmpty()) {
      throw bad(text, parts[0] + " entries take no name (write " + parts[0] + "::RIGHTS)");
    }
    String letters = parts[2];
    if (letters.isEmpty()) {
      throw bad(text, "no rights given (write n for none)");
    }
    int bits = 0;
    for (int i = 0; i < letters.length(); i++) {
      int at = LETTERS.indexOf(letters.charAt(i));
      if (at < 0) {
        throw bad(text, "unknown right '" + letters.charAt(i) + "' (rights are r w c l d x y a n)");
      }
      bits |= AclRights.bit(LETTER_RIGHTS.get(at));
    }
    return OmAcl.newBuilder().setType(type).setName(name).setRights(bits).setScope(scope).build();
  }

  /**
   * Parses a comma-separated list of entries ({@code user:alice:rw,group:dev:r}); empty items
   * are refused.
   *
   * @throws IllegalArgumentException naming the item that is wrong
   */
  public static List<OmAcl> parseList(String text) {
    List<OmAcl> acls = new ArrayList<>();
    for (String item : text.split(",", -1)) {
      if (item.isBlank()) {
        throw bad(text, "an empty entry in the list");
      }
      acls.add(parse(item));
    }
    return acls;
  }

  /**
   * The text form of {@code acl}.
   *
   * @throws IllegalArgumentException if its type or scope is not one of the known ones
   */
  public static String format(OmAcl acl) {
    StringBuilder s = new StringBuilder(typeWord(acl.getType())).append(':')
        .append(acl.getName()).append(':');
    int before = s.length();
    for (int i = 0; i < LETTER_RIGHTS.size(); i++) {
      if ((acl.getRights() & AclRights.bit(LETTER_RIGHTS.get(i))) != 0) {
        s.append(LETTERS.charAt(i));
      }
    }
    if (s.length() == before) {
      s.append('n');
    }
    switch (acl.getScope()) {
      case ACL_ACCESS -> { }
      case ACL_DEFAULT -> s.append("[DEFAULT]");
      default -> throw new IllegalArgumentException("ACL entry of unknown scope "
          + acl.getScopeValue());
    }
    return s.toString();
  }

  /** The text forms of {@code acls}, in their order. */
  public static List<String> formatAll(List<OmAcl> acls) {
    return acls.stream().map(AclText::format).toList();
  }

  /** The word of an identity type in the text form: user, group, world or anonymous. */
  static String typeWord(AclIdentityType type) {
    return switch (type) {
      case ACL_USER -> "user";
      case ACL_GROUP -> "group";
      case ACL_WORLD -> "world";
      case ACL_ANONYMOUS -> "anonymous";
      default -> throw new IllegalArgumentException("ACL entry of unknown identity type "
          + type.getNumber());
    };
  }

  private static IllegalArgumentException bad(String text, String why) {
    return new IllegalArgumentException("Bad ACL '" + text + "': " + why
        + "; the form is TYPE:NAME:RIGHTS[SCOPE], e.g. user:alice:rw, group:dev:rl[DEFAULT], "
        + "world::r");
  }
}
