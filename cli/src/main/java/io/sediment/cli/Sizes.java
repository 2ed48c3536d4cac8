package io.sediment.cli;

import java.util.Locale;
import picocli.CommandLine;

/**
 * Byte counts as the shell takes them: a whole number with an optional unit B, KB, MB, GB, TB or
 * PB (powers of 1024, as Ozone's quotas; KiB, MiB... are the same), case-insensitive, e.g.
 * {@code 10GB} or {@code 4096}.
 */
final class Sizes {

  private static final String[] UNITS = {"B", "KB", "MB", "GB", "TB", "PB"};

  private Sizes() {
  }

  /**
   * The bytes {@code text} names.
   *
   * @throws CommandLine.ParameterException (a usage error, naming {@code option}) if it is not a
   *     non-negative whole number with a known unit, or overflows a long
   */
  static long parse(CommandLine cmd, String option, String text) {
    String t = text.strip().toUpperCase(Locale.ROOT).replace("IB", "B");
    int digits = 0;
    while (digits < t.length() && Character.isDigit(t.charAt(digits))) {
      digits++;
    }
    String unit = t.substring(digits).strip();
    int power = unit.isEmpty() ? 0 : -1;
    for (int i = 0; i < UNITS.length && power < 0; i++) {
      if (UNITS[i].equals(unit) || (i > 0 && UNITS[i].substring(0, 1).equals(unit))) {
        power = i;
      }
    }
    if (digits == 0 || power < 0) {
      throw new CommandLine.ParameterException(cmd, option + " must be a whole number of bytes "
          + "with an optional unit B, KB, MB, GB, TB or PB (e.g. 10GB): '" + text + "'");
    }
    try {
      long n = Long.parseLong(t.substring(0, digits));
      for (int i = 0; i < power; i++) {
        n = Math.multiplyExact(n, 1024L);
      }
      return n;
    } catch (NumberFormatException | ArithmeticException e) {
      throw new CommandLine.ParameterException(cmd, option + " is too large: '" + text + "'");
    }
  }
}
