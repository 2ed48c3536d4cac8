package io.sediment.om.fso;

import io.sediment.om.core.OmException;
import io.sediment.om.core.OmValidation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * A validated path inside a FILE_SYSTEM_OPTIMIZED bucket, relative to the bucket root, e.g.
 * {@code a/b/c}. Immutable.
 *
 * <p>Rules ({@link #parse}, {@link #parseNew}); every violation is
 * {@link OmException.Code#INVALID_ARGUMENT}:
 * <ul>
 *   <li>Well-formed Unicode (no unpaired surrogate, so the UTF-8 form is valid), as given (before
 *       normalization) of at most {@value OmValidation#MAX_KEY_BYTES} UTF-8 bytes for a path that
 *       is created ({@link #parseNew}: a new directory or file, a rename's destination) and of at
 *       most {@value OmValidation#MAX_STORED_KEY_BYTES} for a path that is looked up, listed,
 *       committed or deleted ({@link #parse}): renaming an ancestor can make an existing path
 *       longer than any path a caller may create, and it must stay reachable.
 *   <li>{@code ""} and {@code "/"} are the bucket root.
 *   <li>Otherwise one leading {@code /} and one trailing {@code /} are ignored ({@code /a/b/},
 *       {@code a/b/} and {@code a/b} are the same path); what remains is split at {@code /}
 *       and every component must be non-empty (so {@code //}, {@code a//b} and {@code a/b//}
 *       are rejected) and neither {@code .} nor {@code ..}.
 * </ul>
 * Component names may hold any other character, including spaces and control characters; the
 * normalized form ({@link #path()}) joins the components with single {@code /} and has no
 * leading or trailing {@code /} ({@code ""} for the root).
 *
 * <p><b>Listing order</b> ({@link #LISTING_ORDER}): paths compare component by component, each
 * component by its UTF-8 bytes (unsigned; the same as code-point order), and a path sorts
 * before every path below it. This is depth-first order with children in name order, which is
 * the directoryTable/fileTable key order within one directory. It differs from plain string
 * order where a name holds a character below {@code /}: {@code a/x} sorts before {@code a-b}
 * here ({@code a} &lt; {@code a-b}), while as strings {@code a-b} comes first.
 */
public final class FsoPath {

  /** The bucket root. */
  static final FsoPath ROOT = new FsoPath(List.of(), "");

  /** Listing order over normalized path strings; see the class comment. */
  public static final Comparator<String> LISTING_ORDER = FsoPath::compareListingOrder;

  private final List<String> components;
  private final String path;

  private FsoPath(List<String> components, String path) {
    this.components = components;
    this.path = path;
  }

  /**
   * Parses and validates a path a caller gives to address what may already exist (lookup,
   * listing, start key, commit, delete, a rename's source).
   *
   * @param what the argument's name for messages, e.g. {@code "Path"} or {@code "Start key"}
   * @throws OmException INVALID_ARGUMENT if it breaks a rule of the class comment
   */
  static FsoPath parse(String what, String raw) {
    OmValidation.checkPathText(what, raw, OmValidation.MAX_STORED_KEY_BYTES);
    return split(what, raw);
  }

  /**
   * Parses and validates a path a caller wants created (a directory, a file, a rename's
   * destination): as {@link #parse}, but at most {@value OmValidation#MAX_KEY_BYTES} UTF-8 bytes.
   *
   * @throws OmException INVALID_ARGUMENT if it breaks a rule of the class comment
   */
  static FsoPath parseNew(String what, String raw) {
    OmValidation.checkPathText(what, raw, OmValidation.MAX_KEY_BYTES);
    return split(what, raw);
  }

  /**
   * Parses a path the store produced itself (a continuation token's last path): the component
   * rules apply, the length limit does not, because a rename of an ancestor can make a
   * descendant's full path longer than any path a caller may pass.
   */
  static FsoPath parseStored(String what, String raw) {
    if (raw == null) {
      throw OmException.invalid(what + " is missing");
    }
    return split(what, raw);
  }

  private static FsoPath split(String what, String raw) {
    if (raw.isEmpty() || raw.equals("/")) {
      return ROOT;
    }
    int from = raw.charAt(0) == '/' ? 1 : 0;
    int to = raw.charAt(raw.length() - 1) == '/' ? raw.length() - 1 : raw.length();
    if (from >= to) {
      throw OmException.invalid(what + " '" + abbreviate(raw) + "' has an empty component");
    }
    List<String> parts = new ArrayList<>();
    int start = from;
    for (int i = from; i <= to; i++) {
      if (i == to || raw.charAt(i) == '/') {
        String c = raw.substring(start, i);
        if (c.isEmpty()) {
          throw OmException.invalid(what + " '" + abbreviate(raw)
              + "' has an empty component ('//')");
        }
        if (c.equals(".") || c.equals("..")) {
          throw OmException.invalid(what + " '" + abbreviate(raw) + "' has a '" + c
              + "' component; paths must be normalized");
        }
        parts.add(c);
        start = i + 1;
      }
    }
    return new FsoPath(Collections.unmodifiableList(parts), raw.substring(from, to));
  }

  boolean isRoot() {
    return components.isEmpty();
  }

  /** Number of components; 0 for the root. */
  int depth() {
    return components.size();
  }

  String component(int i) {
    return components.get(i);
  }

  /** The last component. */
  String leaf() {
    return components.get(components.size() - 1);
  }

  /** The normalized path: components joined with {@code /}; {@code ""} for the root. */
  String path() {
    return path;
  }

  /** The path of the first {@code n} components (the root for 0). */
  FsoPath prefix(int n) {
    if (n == components.size()) {
      return this;
    }
    if (n == 0) {
      return ROOT;
    }
    List<String> sub = components.subList(0, n);
    return new FsoPath(sub, String.join("/", sub));
  }

  /** The parent path; the root's parent is the root. */
  FsoPath parent() {
    return isRoot() ? this : prefix(components.size() - 1);
  }

  /** Whether {@code other} is strictly below this path. */
  boolean isAncestorOf(FsoPath other) {
    return other.depth() > depth() && other.components.subList(0, depth()).equals(components);
  }

  /** Whether {@code other} is this path or below it. */
  boolean contains(FsoPath other) {
    return other.depth() >= depth() && other.components.subList(0, depth()).equals(components);
  }

  /** {@code parent + "/" + name} for a normalized parent path ({@code name} for the root). */
  public static String join(String parent, String name) {
    return parent.isEmpty() ? name : parent + "/" + name;
  }

  /** Compares two names (or any strings) by code point, which is their UTF-8 byte order. */
  static int compareNames(String a, String b) {
    return compareCodePoints(a, b, false);
  }

  private static int compareListingOrder(String a, String b) {
    return compareCodePoints(a, b, true);
  }

  /**
   * Compares by code point; with {@code separatorFirst}, '/' sorts before every other code point
   * (the order of paths listed component by component). A proper prefix sorts first.
   */
  private static int compareCodePoints(String a, String b, boolean separatorFirst) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        // The separator ends a component, so in listing order it sorts before every character.
        if (separatorFirst && (ca == '/' || cb == '/')) {
          return ca == '/' ? -1 : 1;
        }
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FsoPath other && other.path.equals(path);
  }

  @Override
  public int hashCode() {
    return path.hashCode();
  }

  @Override
  public String toString() {
    return path;
  }
}
