package io.sediment.recon;

import io.sediment.db.DBStore;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.insight.OmInsight;
import java.util.Objects;

/** {@link ReconSource#embedded}: the live store of this process; closing leaves it open. */
final class EmbeddedSource implements ReconSource {

  private final OmMetadataStore om;
  private final OmInsight insight;

  EmbeddedSource(OmMetadataStore om) {
    this.om = Objects.requireNonNull(om, "om");
    this.insight = om.insight();
  }

  @Override
  public OmInsight insight() {
    return insight;
  }

  @Override
  public DBStore store() {
    return om.dbStore();
  }

  @Override
  public String mode() {
    return "embedded";
  }

  @Override
  public void close() {
  }
}
