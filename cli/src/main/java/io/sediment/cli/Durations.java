package io.sediment.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import picocli.CommandLine;

/**
 * Durations on the command line: a whole number with a unit, {@code 500ms}, {@code 90s},
 * {@code 15m}, {@code 1h}, {@code 7d}, or ISO-8601 ({@code PT90S}, {@code P7D}). A bare number is
 * refused (its unit would be a guess). Stateless and thread-safe.
 */
final class Durations implements CommandLine.ITypeConverter<Duration> {

  private static final String FORMAT = "a whole number with a unit (ms, s, m, h, d), e.g. 90s, "
      + "15m, 1h, 7d, or ISO-8601 such as PT90S";

  /** The longest accepted duration, 100,000 days: it fits the nanoseconds a scheduler counts. */
  static final Duration MAX = Duration.ofDays(100_000);

  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  /**
   * The duration {@code text} denotes.
   *
   * @throws CommandLine.TypeConversionException if it is not one of the accepted forms, or longer
   *     than {@link #MAX} (a service could not schedule it)
   */
  static Duration parse(String text) {
    Duration d = parseAny(text);
    if (d.compareTo(MAX) > 0) {
      throw new CommandLine.TypeConversionException("'" + text + "' is too long: at most "
          + format(MAX));
    }
    return d;
  }

  private static Duration parseAny(String text) {
    String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    if (s.startsWith("p")) {
      try {
        return Duration.parse(s.toUpperCase(Locale.ROOT));
      } catch (DateTimeParseException e) {
        throw new CommandLine.TypeConversionException("'" + text + "' is not a duration: " + FORMAT);
      }
    }
    int unitAt = 0;
    while (unitAt < s.length() && Character.isDigit(s.charAt(unitAt))) {
      unitAt++;
    }
    if (unitAt == 0 || unitAt > 12) {
      throw new CommandLine.TypeConversionException("'" + text + "' is not a duration: " + FORMAT);
    }
    long n = Long.parseLong(s.substring(0, unitAt));
    return switch (s.substring(unitAt)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      case "d" -> Duration.ofDays(n);
      default -> throw new CommandLine.TypeConversionException("'" + text
          + "' is not a duration: " + FORMAT);
    };
  }

  /** {@code d} in the largest unit that states it exactly ({@code 7d}, {@code 90s}, {@code 1500ms}). */
  static String format(Duration d) {
    long ms = d.toMillis();
    if (ms != 0 && ms % 86_400_000L == 0) {
      return ms / 86_400_000L + "d";
    }
    if (ms != 0 && ms % 3_600_000L == 0) {
      return ms / 3_600_000L + "h";
    }
    if (ms != 0 && ms % 60_000L == 0) {
      return ms / 60_000L + "m";
    }
    if (ms % 1000L == 0) {
      return ms / 1000L + "s";
    }
    return ms + "ms";
  }
}
