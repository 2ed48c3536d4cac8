package io.sediment.db.managed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.rdb.RDBStore;
import io.sediment.db.testing.TestStores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link MetadataFootprint}: the estimate AUTO pinning compares against its budget. */
class MetadataFootprintTest {

  @TempDir Path dir;

  /** Writes {@code files} SSTs of 1,000 keys each into table "bytes"; returns their exact index + filter bytes. */
  private long writeFiles(int files) {
    DBProfile profile = DBProfile.builder().disableAutoCompactions(true).build();
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir)
        .setProfile(profile).build()) {
      for (int f = 0; f < files; f++) {
        for (int i = 0; i < 1_000; i++) {
          store.getTable("bytes").put(String.format("key-%04d-%06d", f, i).getBytes(), new byte[50]);
        }
        store.flush();
      }
      RocksDatabase rocks = ((RDBStore) store).database();
      long exact = 0;
      for (SstFileProperties p : rocks.introspection().sstFileProperties(rocks.columnFamily("bytes"))) {
        exact += p.indexSize() + p.filterSize();
      }
      assertEquals(files, rocks.introspection().sstFileProperties(rocks.columnFamily("bytes")).size());
      return exact;
    }
  }

  @Test
  void aDirectoryWithoutTableFilesHasNoMetadata() throws IOException {
    assertEquals(0, MetadataFootprint.estimate(dir.resolve("missing")));
    Files.writeString(dir.resolve("LOG"), "not a table file");
    assertEquals(0, MetadataFootprint.estimate(dir));
  }

  @Test
  void manyFilesAreSampledAndScaledByTheirBytes() {
    int files = 3 * MetadataFootprint.MAX_SAMPLED;
    long exact = writeFiles(files);
    long estimate = MetadataFootprint.estimate(dir);
    assertTrue(estimate > exact * 0.8 && estimate < exact * 1.25,
        "estimate " + estimate + ", exact " + exact);
  }

  @Test
  void atMostSixteenFilesAreReadSpreadOverAllOfThem() {
    assertArrayEquals(new int[] {0, 1, 2}, MetadataFootprint.sample(3));
    int[] sample = MetadataFootprint.sample(160);
    assertEquals(MetadataFootprint.MAX_SAMPLED, sample.length);
    for (int i = 0; i < sample.length; i++) {
      assertEquals(10 * i, sample[i]);
    }
    assertEquals(0, MetadataFootprint.sample(0).length);
  }

  @Test
  void whenNoSampledFileCanBeReadEveryByteCountsAsMetadata() throws IOException {
    Files.write(dir.resolve("000007.sst"), new byte[3000]);
    Files.write(dir.resolve("000009.sst"), new byte[4000]);
    assertEquals(7000, MetadataFootprint.estimate(dir));
  }

  @Test
  void anUnreadableFileIsScaledAsIfItHeldWhatTheReadableOnesDo() throws IOException {
    long exact = writeFiles(2);
    long tableBytes;
    try (var listing = Files.list(dir)) {
      tableBytes = listing.filter(p -> p.toString().endsWith(".sst"))
          .mapToLong(p -> p.toFile().length()).sum();
    }
    Files.write(dir.resolve("999999.sst"), new byte[(int) tableBytes]);
    long estimate = MetadataFootprint.estimate(dir);
    assertTrue(Math.abs(estimate - 2 * exact) <= 2, "estimate " + estimate + ", exact " + exact);
  }
}
