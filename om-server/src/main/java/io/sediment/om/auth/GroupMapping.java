package io.sediment.om.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which groups each user is in, read from a file of lines {@code user: group1, group2}: a user
 * name, a colon, then group names separated by commas (none is allowed). Blank space around names
 * is ignored; {@code #} starts a comment to the end of the line; blank lines are skipped. A user
 * not named is in no group.
 *
 * <p>Immutable and thread-safe.
 */
public final class GroupMapping {

  /** No user is in any group. */
  public static final GroupMapping NONE = new GroupMapping(Map.of());

  private final Map<String, Set<String>> groups;

  private GroupMapping(Map<String, Set<String>> groups) {
    this.groups = Map.copyOf(groups);
  }

  /**
   * Reads {@code file}.
   *
   * @throws IOException if it cannot be read, or naming the file and line of the first line that
   *     is not {@code user: groups}, names an empty user or group, a name with blank space inside,
   *     or a user a second time
   */
  public static GroupMapping load(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    Map<String, Set<String>> out = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      int hash = line.indexOf('#');
      String text = (hash < 0 ? line : line.substring(0, hash)).strip();
      if (text.isEmpty()) {
        continue;
      }
      String where = file + ":" + (i + 1) + ": ";
      int colon = text.indexOf(':');
      if (colon < 0) {
        throw new IOException(where + "expected 'user: group1, group2', got '" + text + "'");
      }
      String user = name(text.substring(0, colon), where, "user");
      Set<String> userGroups = new LinkedHashSet<>();
      String rest = text.substring(colon + 1).strip();
      if (!rest.isEmpty()) {
        for (String g : rest.split(",", -1)) {
          userGroups.add(name(g, where, "group"));
        }
      }
      if (out.put(user, Set.copyOf(userGroups)) != null) {
        throw new IOException(where + "user '" + user + "' is named twice");
      }
    }
    return new GroupMapping(out);
  }

  private static String name(String raw, String where, String what) throws IOException {
    String n = raw.strip();
    if (n.isEmpty()) {
      throw new IOException(where + "empty " + what + " name");
    }
    if (n.chars().anyMatch(c -> Character.isWhitespace(c) || c == ':')) {
      throw new IOException(where + what + " name '" + n + "' has blank space or ':' inside");
    }
    return n;
  }

  /** The groups {@code user} is in (possibly none). */
  public Set<String> groupsOf(String user) {
    return groups.getOrDefault(user, Set.of());
  }

  /** {@code user} with its groups. */
  public Principal principal(String user) {
    return new Principal(user, groupsOf(user));
  }

  /** How many users the mapping names. */
  public int users() {
    return groups.size();
  }
}
