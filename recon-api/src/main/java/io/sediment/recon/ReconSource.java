package io.sediment.recon;

import io.sediment.db.DBStore;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.insight.OmInsight;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What Recon reads: an {@link OmInsight} and the store under it. Implementations are
 * thread-safe.
 */
public interface ReconSource extends AutoCloseable {

  /** The read side of the namespace. */
  OmInsight insight();

  /** The store, for table, tombstone and RocksDB statistics. */
  DBStore store();

  /** {@code embedded} or {@code secondary}. */
  String mode();

  /** Catch-ups done and failed so far (0 for an embedded source). */
  default long catchUps() {
    return 0;
  }

  /** See {@link #catchUps()}. */
  default long catchUpFailures() {
    return 0;
  }

  /** Releases what the source opened itself (an embedded source leaves the store open). */
  @Override
  void close();

  /**
   * The store of a running {@link OmMetadataStore} in this process: every read is a read-only
   * view on a RocksDB snapshot of the live store. Closing the source does not close the store.
   */
  static ReconSource embedded(OmMetadataStore om) {
    return new EmbeddedSource(om);
  }

  /**
   * A store directory another process owns, opened as a read-only RocksDB secondary instance
   * (its own files under {@code secondaryDir}) that catches up with the primary every
   * {@code catchUpEvery}. Works on a checkpoint directory too (then there is nothing to catch up).
   *
   * @throws io.sediment.db.StoreException if the directory holds no store of
   *     this layout
   */
  static ReconSource secondary(Path storeDir, Path secondaryDir, Duration catchUpEvery) {
    return new SecondarySource(storeDir, secondaryDir, catchUpEvery);
  }
}
