package io.sediment.cli;

import java.util.function.IntConsumer;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * How a command pages through a bucket's listing, shared by {@code ls} and {@code scan}:
 * {@code --delimiter}, {@code -r/--recursive} and {@code --page-size}. In an FSO bucket the
 * listing is ListStatus (by directory; the delimiter does not apply), elsewhere ListObjectsV2.
 */
final class ListingOptions {

  @Option(names = "--delimiter", defaultValue = "/",
      description = "Roll keys up to common prefixes at this string (default: ${DEFAULT-VALUE}; "
          + "not for FSO buckets, whose listings are by directory).")
  String delimiter;

  @Option(names = {"-r", "--recursive"},
      description = "Every key, no common prefixes (FSO: the whole subtree).")
  boolean recursive;

  @Option(names = "--page-size", paramLabel = "N",
      description = "Entries per listing call, at most the server's page cap (default: that cap, "
          + "`serve --page-cap`).")
  Integer pageSize;

  /** @throws CommandLine.ParameterException (a usage error) for a page size below 1 */
  void check(CommandLine cmd) {
    if (pageSize != null && pageSize < 1) {
      throw new CommandLine.ParameterException(cmd, "--page-size must be at least 1: " + pageSize);
    }
  }

  /** The ListObjectsV2 delimiter: none when recursive. */
  String objectsDelimiter() {
    return recursive ? "" : delimiter;
  }

  /**
   * Puts --page-size into a request's optional page-size field when given; left absent, the field
   * asks for the server's page cap (an explicit 0 would ask for an empty page).
   */
  void pageSizeInto(IntConsumer field) {
    if (pageSize != null) {
      field.accept(pageSize);
    }
  }
}
