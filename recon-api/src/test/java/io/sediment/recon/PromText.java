package io.sediment.recon;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text exposition format (version 0.0.4), for tests: every line
 * is a {@code # HELP}, a {@code # TYPE} or a sample; names and label names must be valid; label
 * values must be properly escaped; every family's TYPE comes once, before its samples, and a
 * family's samples are contiguous; values are floats, {@code +Inf}, {@code -Inf} or {@code NaN}.
 * Anything else fails with the line number.
 */
final class PromText {

  private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
  private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") (.*)");
  private static final Pattern TYPE = Pattern.compile(
      "# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
  private static final Pattern SAMPLE = Pattern.compile(
      "(" + NAME + ")(\\{(.*)\\})? (\\S+)( -?\\d+)?");
  private static final Pattern LABEL = Pattern.compile(
      "([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"(,|$)");

  /** One sample. */
  record Sample(String name, Map<String, String> labels, double value) {
  }

  /** What a scrape holds. */
  record Scrape(Map<String, String> types, List<Sample> samples) {
    /** The value of the one sample of {@code name} whose labels include {@code labels}. */
    double value(String name, Map<String, String> labels) {
      List<Sample> found = samples.stream().filter(s -> s.name().equals(name)
          && s.labels().entrySet().containsAll(labels.entrySet())).toList();
      if (found.size() != 1) {
        throw new AssertionError(found.size() + " samples of " + name + labels);
      }
      return found.get(0).value();
    }

    boolean has(String name) {
      return samples.stream().anyMatch(s -> s.name().equals(name));
    }
  }

  private PromText() {
  }

  static Scrape parse(String text) {
    Map<String, String> types = new LinkedHashMap<>();
    List<Sample> samples = new ArrayList<>();
    Set<String> closed = new HashSet<>();
    String current = null;
    String[] lines = text.split("\n", -1);
    if (!text.endsWith("\n")) {
      throw new AssertionError("the exposition must end with a newline");
    }
    for (int i = 0; i < lines.length - 1; i++) {
      String line = lines[i];
      int n = i + 1;
      Matcher m;
      if (line.startsWith("#")) {
        if ((m = HELP.matcher(line)).matches()) {
          continue;
        }
        if ((m = TYPE.matcher(line)).matches()) {
          if (types.put(m.group(1), m.group(2)) != null) {
            throw new AssertionError("line " + n + ": second TYPE for " + m.group(1));
          }
          if (current != null) {
            closed.add(current);
          }
          current = m.group(1);
          continue;
        }
        throw new AssertionError("line " + n + ": bad comment: " + line);
      }
      if (line.isEmpty()) {
        throw new AssertionError("line " + n + ": empty line");
      }
      if (!(m = SAMPLE.matcher(line)).matches()) {
        throw new AssertionError("line " + n + ": not a sample: " + line);
      }
      String name = m.group(1);
      String family = family(name, types);
      if (family == null) {
        throw new AssertionError("line " + n + ": sample of " + name + " before its TYPE");
      }
      if (closed.contains(family) || !family.equals(current)) {
        throw new AssertionError("line " + n + ": samples of " + family + " are not contiguous");
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(3) != null && !m.group(3).isEmpty()) {
        Matcher l = LABEL.matcher(m.group(3));
        int at = 0;
        while (at < m.group(3).length()) {
          if (!l.find(at) || l.start() != at) {
            throw new AssertionError("line " + n + ": bad labels: " + m.group(3));
          }
          if (labels.put(l.group(1), unescape(l.group(2))) != null) {
            throw new AssertionError("line " + n + ": label " + l.group(1) + " twice");
          }
          at = l.end();
        }
      }
      samples.add(new Sample(name, labels, value(m.group(4), n)));
    }
    return new Scrape(types, samples);
  }

  private static String family(String sample, Map<String, String> types) {
    if (types.containsKey(sample)) {
      return sample;
    }
    for (String suffix : new String[] {"_total", "_created", "_bucket", "_count", "_sum"}) {
      if (sample.endsWith(suffix)) {
        String base = sample.substring(0, sample.length() - suffix.length());
        if (types.containsKey(base)) {
          return base;
        }
      }
    }
    return null;
  }

  private static double value(String v, int line) {
    switch (v) {
      case "+Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      case "NaN":
        return Double.NaN;
      default:
        try {
          return Double.parseDouble(v);
        } catch (NumberFormatException e) {
          throw new AssertionError("line " + line + ": bad value " + v);
        }
    }
  }

  private static String unescape(String s) {
    return s.replace("\\n", "\n").replace("\\\"", "\"").replace("\\\\", "\\");
  }
}
