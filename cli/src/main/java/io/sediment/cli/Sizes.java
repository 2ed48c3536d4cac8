package io.sediment.cli;

import java.util.Locale;
import picocli.CommandLine;

/**
 * Byte sizes on the command line and in a configuration file (cache sizes, quotas, key sizes): a
 * whole number of bytes ({@code 268435456}) or a whole number with a binary unit,
 * {@code k}/{@code KB}/{@code KiB} (2^10), {@code m}/{@code MB}/{@code MiB} (2^20),
 * {@code g}/{@code GB}/{@code GiB} (2^30), {@code t}/{@code TB}/{@code TiB} (2^40),
 * {@code p}/{@code PB}/{@code PiB} (2^50), case ignored ({@code 256MiB}, {@code 1g},
 * {@code 10GB}: as Ozone's quotas, KB and the like are powers of 1024). Stateless and thread-safe.
 */
final class Sizes implements CommandLine.ITypeConverter<Long> {

  private static final String FORMAT = "a whole number of bytes, or with a unit k, m, g, t, p "
      + "(binary: KiB, MiB, GiB, TiB, PiB; KB... are the same), e.g. 256MiB, 1g or 10GB";

  @Override
  public Long convert(String value) {
    return parse(value);
  }

  /**
   * The number of bytes {@code text} denotes.
   *
   * @throws CommandLine.TypeConversionException if it is not one of the accepted forms or does
   *     not fit a long
   */
  static long parse(String text) {
    String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    int unitAt = 0;
    while (unitAt < s.length() && Character.isDigit(s.charAt(unitAt))) {
      unitAt++;
    }
    if (unitAt == 0 || unitAt > 18) {
      throw new CommandLine.TypeConversionException("'" + text + "' is not a size: " + FORMAT);
    }
    long n = Long.parseLong(s.substring(0, unitAt));
    int shift = switch (s.substring(unitAt).trim()) {
      case "", "b" -> 0;
      case "k", "kib", "kb" -> 10;
      case "m", "mib", "mb" -> 20;
      case "g", "gib", "gb" -> 30;
      case "t", "tib", "tb" -> 40;
      case "p", "pib", "pb" -> 50;
      default -> throw new CommandLine.TypeConversionException("'" + text + "' is not a size: "
          + FORMAT);
    };
    if (shift > 0 && n > (Long.MAX_VALUE >> shift)) {
      throw new CommandLine.TypeConversionException("'" + text + "' is too large");
    }
    return n << shift;
  }

  /**
   * {@link #parse(String)} for option {@code option} of {@code cmd}.
   *
   * @throws CommandLine.ParameterException (a usage error naming the option) if it is not a size
   */
  static long parse(CommandLine cmd, String option, String text) {
    try {
      return parse(text);
    } catch (CommandLine.TypeConversionException e) {
      throw new CommandLine.ParameterException(cmd, option + ": " + e.getMessage());
    }
  }

  /** {@code bytes} in the largest binary unit that states it exactly ({@code 256MiB}, {@code 1000}). */
  static String format(long bytes) {
    String[] units = {"TiB", "GiB", "MiB", "KiB"};
    int[] shifts = {40, 30, 20, 10};
    for (int i = 0; i < units.length; i++) {
      long unit = 1L << shifts[i];
      if (bytes != 0 && bytes % unit == 0) {
        return bytes / unit + units[i];
      }
    }
    return Long.toString(bytes);
  }
}
