package io.sediment.cli;

import picocli.CommandLine;

/**
 * A {@code VOLUME[/BUCKET[/KEY]]} address of the object shell, as {@code ls} takes it: one leading
 * '/' is ignored; so is a trailing '/' after a volume or bucket name. The key is everything after
 * the bucket's '/', kept as written (it may hold '/').
 *
 * @param volume never empty
 * @param bucket empty for a volume's address
 * @param key empty for a volume's or bucket's address
 */
record ObjectAddress(String volume, String bucket, String key) {

  /** How deep an address must go. */
  enum Depth {
    VOLUME("VOLUME"), BUCKET("VOLUME/BUCKET"), KEY("VOLUME/BUCKET/KEY");

    final String form;

    Depth(String form) {
      this.form = form;
    }
  }

  /**
   * Parses {@code text}, which must name exactly a volume, a bucket or a key, as {@code depth}
   * says.
   *
   * @throws CommandLine.ParameterException (a usage error) naming the expected form otherwise
   */
  static ObjectAddress parse(CommandLine cmd, String text, Depth depth) {
    String p = text.startsWith("/") ? text.substring(1) : text;
    if (depth != Depth.KEY && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    String[] parts = p.split("/", 3);
    int want = depth.ordinal() + 1;
    boolean ok = parts.length == want;
    for (String part : parts) {
      ok &= !part.isEmpty();
    }
    if (!ok) {
      throw new CommandLine.ParameterException(cmd,
          "expected " + depth.form + ": '" + text + "'");
    }
    return new ObjectAddress(parts[0], want > 1 ? parts[1] : "", want > 2 ? parts[2] : "");
  }

  /** {@code volume[/bucket[/key]]}, as parsed. */
  @Override
  public String toString() {
    return volume + (bucket.isEmpty() ? "" : "/" + bucket) + (key.isEmpty() ? "" : "/" + key);
  }
}
