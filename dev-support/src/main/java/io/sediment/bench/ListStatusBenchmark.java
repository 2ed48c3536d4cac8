package io.sediment.bench;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.listing.ListPage;
import io.sediment.om.core.OpenKeySession;
import io.sediment.proto.om.BucketLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A listStatus page of 1,000 entries of an FSO directory, in the store (no RPC): the page's
 * server work, from the bucket's lookup to the {@link FileStatus}es. The directory holds 1,000
 * committed files, as freon's ListStatus reads them.
 *
 * <p>Run with the shaded cli jar on the class path (om-metadata is provided):
 * {@code java -cp dev-support/target/benchmarks.jar:cli/target/sediment.jar
 * org.openjdk.jmh.Main ListStatusBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class ListStatusBenchmark {

  private static final int PAGE = 1_000;
  private static final String VOLUME = "vol";
  private static final String BUCKET = "fso";

  private Path dir;
  private OmMetadataStore store;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("sediment-liststatus");
    store = OmMetadataStore.open(dir.resolve("store"), OmStoreOptions.defaults());
    store.createVolume(VOLUME, "admin");
    store.createBucket(VOLUME, BUCKET, BucketLayout.FILE_SYSTEM_OPTIMIZED, "admin", 0);
    store.fso().createDirectory(VOLUME, BUCKET, "dir");
    for (int i = 0; i < PAGE; i++) {
      String path = String.format("dir/file-%06d", i);
      OpenKeySession s = store.fso().createFile(VOLUME, BUCKET, path, "freon");
      store.fso().commitFile(VOLUME, BUCKET, path, s.clientId(), 4096);
    }
    if (page().items().size() != PAGE) {
      throw new IllegalStateException("a page of " + PAGE + " files expected");
    }
  }

  @Benchmark
  public ListPage<FileStatus> page() {
    return store.fso().listStatus(VOLUME, BUCKET, "dir", false, null, PAGE, null);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    store.close();
    BenchStores.deleteTree(dir);
  }
}
