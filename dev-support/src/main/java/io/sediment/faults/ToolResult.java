package io.sediment.faults;

import java.util.List;

/**
 * How one run of a {@code sediment} command ended.
 *
 * @param exitCode the process's exit code; -1 if it had to be killed after its time limit
 * @param crash why the run counts as a JVM crash (an {@code hs_err_pid*.log} written, or a signal
 *     exit the campaign did not send), or null
 */
record ToolResult(List<String> args, int exitCode, String out, String err, String crash,
    boolean timedOut, long millis) {

  boolean crashed() {
    return crash != null;
  }

  /** True if stdout or stderr contains {@code text}. */
  boolean mentions(String text) {
    return out.contains(text) || err.contains(text);
  }

  /**
   * The first line of stderr (else stdout) that contains {@code text}, else {@link #firstMessage};
   * white space squeezed, the campaign's directories before a store's {@code data} dropped,
   * shortened.
   */
  String messageNaming(String text) {
    for (String s : new String[] {err, out}) {
      for (String line : s.split("\n")) {
        if (text != null && line.contains(text)) {
          return tidy(line);
        }
      }
    }
    return firstMessage();
  }

  private static String tidy(String line) {
    String t = line.replaceAll("/\\S*?/sediment-faults-\\d+/(\\S+?/)?data\\b", "data")
        .replaceAll("\\s+", " ").strip();
    return t.length() > 200 ? t.substring(0, 197) + "..." : t;
  }

  /** The first line of stderr (else stdout) that says something, shortened, for a table cell. */
  String firstMessage() {
    for (String s : new String[] {err, out}) {
      for (String line : s.split("\n")) {
        String t = line.strip();
        if (!t.isEmpty() && !t.startsWith("WARNING") && !t.startsWith("SLF4J")
            && !t.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d+ (INFO|DEBUG|TRACE) .*")) {
          return tidy(t);
        }
      }
    }
    return "";
  }
}
