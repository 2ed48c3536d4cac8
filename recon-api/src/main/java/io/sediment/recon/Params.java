package io.sediment.recon;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * The query parameters of one request, with typed getters that turn malformed values into a 400
 * naming the parameter. A parameter given more than once is refused.
 */
final class Params {

  /** Recon's {@code creationDate} format, read as UTC. */
  static final DateTimeFormatter CREATION_DATE = DateTimeFormatter.ofPattern("MM-dd-yyyy HH:mm:ss");

  private final Map<String, java.util.List<String>> values;

  Params(Map<String, java.util.List<String>> values) {
    this.values = values;
  }

  /** The value, or {@code fallback} when absent. */
  String string(String name, String fallback) {
    java.util.List<String> v = values.get(name);
    if (v == null || v.isEmpty()) {
      return fallback;
    }
    if (v.size() > 1) {
      throw ApiException.badRequest("Parameter '" + name + "' is given " + v.size()
          + " times; give it once");
    }
    return v.get(0);
  }

  /**
   * A whole number, saturated to the {@code int} range: a value beyond it is as far out as any
   * (a {@code limit} of 2^31 or more is "more than the cap", not malformed).
   */
  int integer(String name, int fallback) {
    String v = string(name, null);
    if (v == null || v.isEmpty()) {
      return fallback;
    }
    try {
      java.math.BigInteger n = new java.math.BigInteger(v.trim());
      return n.max(java.math.BigInteger.valueOf(Integer.MIN_VALUE))
          .min(java.math.BigInteger.valueOf(Integer.MAX_VALUE)).intValue();
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("Parameter '" + name + "' must be an integer, not '"
          + abbreviate(v) + "'");
    }
  }

  long nonNegativeLong(String name, long fallback) {
    String v = string(name, null);
    if (v == null || v.isEmpty()) {
      return fallback;
    }
    try {
      long n = Long.parseLong(v.trim());
      if (n < 0) {
        throw ApiException.badRequest("Parameter '" + name + "' must not be negative: " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("Parameter '" + name + "' must be a whole number, not '"
          + abbreviate(v) + "'");
    }
  }

  boolean bool(String name, boolean fallback) {
    String v = string(name, null);
    if (v == null || v.isEmpty()) {
      return fallback;
    }
    if (v.equalsIgnoreCase("true")) {
      return true;
    }
    if (v.equalsIgnoreCase("false")) {
      return false;
    }
    throw ApiException.badRequest("Parameter '" + name + "' must be true or false, not '"
        + abbreviate(v) + "'");
  }

  /** A {@code MM-dd-yyyy HH:mm:ss} (UTC) time as epoch millis; {@code 0} when absent. */
  long creationDate(String name) {
    String v = string(name, null);
    if (v == null || v.isEmpty()) {
      return 0;
    }
    try {
      return LocalDateTime.parse(v.trim(), CREATION_DATE).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw ApiException.badRequest("Parameter '" + name + "' must look like 'MM-dd-yyyy HH:mm:ss', not '"
          + abbreviate(v) + "'");
    }
  }

  static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }
}
