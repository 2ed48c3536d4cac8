package io.sediment.om.examples;

import io.sediment.db.testing.ReadmeSnippets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README shows {@link EmbeddedOmExample} as it is. */
class ReadmeExampleTest {

  @Test
  void readmeShowsTheOmExampleVerbatim() {
    ReadmeSnippets.assertShownVerbatim("om-metadata",
        Path.of("src/test/java/io/sediment/om/examples/EmbeddedOmExample.java"));
  }
}
