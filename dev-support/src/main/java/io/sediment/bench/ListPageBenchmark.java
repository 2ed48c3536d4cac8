package io.sediment.bench;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.listing.KeyRowView;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
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
 * A page of 1,000 entries in the store (no RPC), the server's work from the bucket's lookup to
 * the page: {@code listObjectsV2} of an OBJECT_STORE bucket in the basic view (the rows cut for
 * the wire), and {@code listStatus} of an FSO directory (the {@link FileStatus}es). Keys and files
 * are committed as freon commits them.
 *
 * <p>Run with the shaded cli jar on the class path (om-metadata is provided):
 * {@code java -cp dev-support/target/benchmarks.jar:cli/target/sediment.jar
 * org.openjdk.jmh.Main ListPageBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class ListPageBenchmark {

  private static final int PAGE = 1_000;
  private static final String VOLUME = "vol";
  private static final String BUCKET = "fso";
  private static final String OBS = "obs";
  private static final ListObjectsV2Request V2 = ListObjectsV2Request.of(VOLUME, OBS)
      .withMaxKeys(PAGE).withView(KeyRowView.BASIC);

  private Path dir;
  private OmMetadataStore store;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("sediment-listpage");
    store = OmMetadataStore.open(dir.resolve("store"), OmStoreOptions.defaults());
    store.createVolume(VOLUME, "admin");
    store.createBucket(VOLUME, BUCKET, BucketLayout.FILE_SYSTEM_OPTIMIZED, "admin", 0);
    store.fso().createDirectory(VOLUME, BUCKET, "dir");
    for (int i = 0; i < PAGE; i++) {
      String path = String.format("dir/file-%06d", i);
      OpenKeySession s = store.fso().createFile(VOLUME, BUCKET, path, "freon");
      store.fso().commitFile(VOLUME, BUCKET, path, s.clientId(), 4096);
    }
    store.createBucket(VOLUME, OBS, BucketLayout.OBJECT_STORE, "admin", 0);
    for (int i = 0; i < PAGE; i++) {
      String key = String.format("key-%010d", 1_000_000L + i * 7919L);
      OpenKeySession s = store.openKey(VOLUME, OBS, key, "freon");
      store.commitKey(VOLUME, OBS, key, s.clientId(), 4096);
    }
    if (listStatus().items().size() != PAGE || listObjectsV2().encodedContents().size() != PAGE) {
      throw new IllegalStateException("pages of " + PAGE + " entries expected");
    }
  }

  @Benchmark
  public ListObjectsV2Result listObjectsV2() {
    return store.listObjectsV2(V2);
  }

  @Benchmark
  public ListPage<FileStatus> listStatus() {
    return store.fso().listStatus(VOLUME, BUCKET, "dir", false, null, PAGE, null);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    store.close();
    BenchStores.deleteTree(dir);
  }
}
