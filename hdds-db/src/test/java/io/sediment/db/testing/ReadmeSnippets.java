package io.sediment.db.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Keeps the code the project's README shows true: a README snippet is the fenced code block between
 * {@code <!-- example:NAME -->} and {@code <!-- /example -->}, and it must appear verbatim (every
 * line, in order, contiguous) in the source file of the test that runs it.
 */
public final class ReadmeSnippets {

  /** The project README, seen from a module's directory (Surefire's working directory). */
  public static final Path README = Path.of("..", "README.md");

  private ReadmeSnippets() {
  }

  /** The lines of the code block of snippet {@code name}, without its fence lines. */
  public static List<String> snippet(Path readme, String name) {
    List<String> lines = read(readme);
    String open = "<!-- example:" + name + " -->";
    int start = lines.indexOf(open);
    if (start < 0 || lines.subList(start + 1, lines.size()).contains(open)) {
      fail(readme + " must hold exactly one line " + open);
    }
    int end = lines.subList(start, lines.size()).indexOf("<!-- /example -->") + start;
    if (end < start) {
      fail(readme + ": snippet " + name + " has no closing <!-- /example -->");
    }
    List<String> block = lines.subList(start + 1, end);
    if (block.size() < 2 || !block.get(0).startsWith("```")
        || !block.get(block.size() - 1).equals("```")) {
      fail(readme + ": snippet " + name + " must be one fenced code block");
    }
    return block.subList(1, block.size() - 1);
  }

  /**
   * Fails unless snippet {@code name} of {@link #README} appears verbatim in {@code source},
   * naming the first line where they part.
   */
  public static void assertShownVerbatim(String name, Path source) {
    List<String> shown = snippet(README, name);
    List<String> code = read(source);
    if (shown.isEmpty()) {
      fail("README snippet " + name + " is empty");
    }
    int at = code.indexOf(shown.get(0));
    if (at < 0) {
      fail("README snippet " + name + " starts with a line " + source + " lacks: " + shown.get(0));
    }
    for (int i = 0; i < shown.size(); i++) {
      String expected = at + i < code.size() ? code.get(at + i) : "<end of file>";
      if (!shown.get(i).equals(expected)) {
        fail("README snippet " + name + " parts from " + source + " at its line " + (at + i + 1)
            + ":\n  README: " + shown.get(i) + "\n  source: " + expected);
      }
    }
  }

  private static List<String> read(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
