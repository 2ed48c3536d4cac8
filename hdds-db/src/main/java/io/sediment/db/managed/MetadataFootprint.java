package io.sediment.db.managed;

import io.sediment.db.DBProfile.PartitionPinning;
import io.sediment.db.DBProfile;
import io.sediment.db.PinningDecision;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;
import org.rocksdb.TableProperties;

/**
 * Estimates the index and filter bytes of the SST files in a store's directory, before the store
 * opens, from the table properties ({@code rocksdb.index.size} + {@code rocksdb.filter.size}) of
 * at most {@link #MAX_SAMPLED} files spread evenly over the files in name order, scaled by the
 * bytes of all files. Exact when there are no more files than that. Opening one file's
 * properties reads its footer, metaindex, properties and index blocks (RocksDB's table reader
 * prefetches the index): 1 to 2 ms for a 64 MiB file with half a MiB of index here.
 *
 * <p>Files that vanish or cannot be read while sampling are left out (a secondary's primary may
 * be deleting them); when none of the sampled files can be read, every byte on disk counts as
 * metadata, so a caller comparing the estimate against a budget errs on the side of "too big".
 * Obsolete files not yet deleted count too.
 */
final class MetadataFootprint {

  /** At most this many files' properties are read. */
  static final int MAX_SAMPLED = 16;

  private MetadataFootprint() {
  }

  /**
   * Estimated index and filter bytes of the {@code *.sst} files directly in {@code dir}: 0 when
   * there are none (or no such directory), -1 when the directory cannot be listed.
   */
  static long estimate(Path dir) {
    List<Path> files = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    long total = 0;
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (Stream<Path> listing = Files.list(dir)) {
      for (Path f : (Iterable<Path>) listing.filter(f -> f.getFileName().toString().endsWith(".sst"))
          .sorted()::iterator) {
        long size = sizeOrMinusOne(f);
        if (size > 0) {
          files.add(f);
          sizes.add(size);
          total += size;
        }
      }
    } catch (IOException | UncheckedIOException e) {
      return -1;
    }
    if (files.isEmpty()) {
      return 0;
    }
    long metadata = 0;
    long bytes = 0;
    try (Options options = new Options()) {
      for (int index : sample(files.size())) {
        long fileMetadata = metadataOrMinusOne(options, files.get(index));
        if (fileMetadata >= 0) {
          metadata += fileMetadata;
          bytes += sizes.get(index);
        }
      }
    }
    if (bytes == 0) {
      return total;
    }
    return bytes == total ? metadata : (long) ((double) metadata / bytes * total);
  }

  /** The indexes of the files read out of {@code files}: all, or {@link #MAX_SAMPLED} spread evenly. */
  static int[] sample(int files) {
    int sampled = Math.min(MAX_SAMPLED, files);
    int[] out = new int[sampled];
    for (int i = 0; i < sampled; i++) {
      out[i] = (int) ((long) i * files / sampled);
    }
    return out;
  }

  private static long sizeOrMinusOne(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return -1;
    }
  }

  private static long metadataOrMinusOne(Options options, Path file) {
    try (SstFileReader reader = new SstFileReader(options)) {
      reader.open(file.toString());
      TableProperties p = reader.getTableProperties();
      return p.getIndexSize() + p.getFilterSize();
    } catch (RocksDBException e) {
      return -1;
    }
  }

  /**
   * Decides for a store about to open at {@code dir} with {@code profile}. {@code AUTO} pins when
   * there are files whose index and filters take at most the budget: a store without files (a new
   * one) does not pin, since nothing tells how large it will grow while open, and neither does one
   * whose directory cannot be listed. With an OPTIONS file {@code AUTO} estimates nothing and does
   * not pin (the file's tables pin as it says).
   */
  static PinningDecision decidePinning(DBProfile profile, Path dir) {
    PartitionPinning requested = profile.partitionPinning();
    if (requested != PartitionPinning.AUTO || !profile.partitionedIndexAndFilters()
        || profile.optionsFile().isPresent()) {
      return new PinningDecision(requested, requested == PartitionPinning.ALL, -1, -1);
    }
    long budget = (long) (profile.blockCacheBytes() * profile.autoPinCacheFraction());
    long estimate = estimate(dir);
    return new PinningDecision(requested, estimate > 0 && estimate <= budget, estimate, budget);
  }
}
