package io.sediment.db.examples;

import io.sediment.db.testing.ReadmeSnippets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README shows {@link EmbeddedHddsDbExample} as it is. */
class ReadmeExampleTest {

  @Test
  void readmeShowsTheHddsDbExampleVerbatim() {
    ReadmeSnippets.assertShownVerbatim("hdds-db",
        Path.of("src/test/java/io/sediment/db/examples/EmbeddedHddsDbExample.java"));
  }
}
