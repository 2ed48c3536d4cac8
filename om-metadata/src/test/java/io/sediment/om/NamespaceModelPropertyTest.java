package io.sediment.om;

import io.sediment.db.testing.LeakCheck;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.NamespaceHarness.Op;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The cross-feature model property: random sequences mixing every write of the
 * namespace (OBJECT_STORE and LEGACY keys: create, overwrite, delete, rename, abandoned opens and
 * late or repeated commits; FSO: mkdir -p, create+commit, abandoned opens, file deletes,
 * recursive and non-recursive directory deletes, renames; multipart initiate, part commits
 * (re-uploads included), completions (valid and invalid part lists) and aborts; snapshot create
 * and delete; spare buckets (which also receive writes, are emptied, deleted with open entries
 * and orphaned deleted versions, and re-created under the same name with any layout) and spare
 * volumes; every purge step with random budgets and thresholds while a test clock moves, so
 * expiries really happen) over two buckets of each layout, applied to the store and to a
 * {@link NamespaceModel}. Names include shared prefixes, {@code /}, characters below it, two-
 * and four-byte UTF-8, U+FF21 (UTF-16 order and UTF-8 order disagree) and U+0000. Every call
 * must succeed or fail with the code the model predicts, and every purge step must report
 * exactly the model's rows, bytes, range deletes and persisted cursor.
 *
 * <p>After each sequence: every listing (listKeys by tokens or start-after, listObjectsV2 and V1
 * with random prefixes, delimiters and start-after/markers, listStatus recursive from the root
 * and non-recursive for the root and random directories from random start keys, listOpenFiles
 * per bucket, listMultipartUploads with random markers, listParts, listSnapshots with and
 * without deleted ones, listKeysInSnapshot of every snapshot, listVolumes, listBuckets), paged
 * with random page sizes (S3 listings also above the cap, which they clamp), must return on
 * every page exactly the model's next items and say "more" exactly when more follow, so the
 * pages concatenate to the model's listing; every table this try touches must hold exactly the
 * model's rows; {@code counters()} must equal {@code countFromScan()} and the model, store-wide
 * and per bucket. Then the purge steps run to exhaustion (random budgets), and the queues
 * (deleted, deleted-directory, open and multipart tables) must hold exactly what the model says
 * remains.
 *
 * <p>One store serves every try; each try works in a fresh volume after draining the store-wide
 * queues the earlier tries left (see {@link NamespaceHarness}).
 */
class NamespaceModelPropertyTest {

  /** A small cap, so random page sizes reach it and S3 listings get clamped. */
  private static final int CAP = 6;

  private static Path dir;
  private static OmMetadataStore om;
  private static final MutableClock CLOCK = new MutableClock();
  private static final NavigableSet<String> VOLUMES = new TreeSet<>(OmTestSupport.UTF8_ORDER);
  private static final AtomicInteger TRIES = new AtomicInteger();

  /** The Jupiter leak check does not run on jqwik containers: this one covers the container. */
  private static LeakCheck leaks;

  @BeforeContainer
  static void openStore() throws IOException {
    leaks = LeakCheck.begin();
    dir = Files.createTempDirectory("om-namespace-model");
    om = OmMetadataStore.open(dir, NamespaceHarness.options(CLOCK, CAP));
  }

  @AfterContainer
  static void closeStore() throws IOException {
    om.close();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    org.junit.jupiter.api.Assertions.assertEquals("", leaks.report(),
        "resources left after the store closed");
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    return NamespaceHarness.op().list().ofMinSize(20).ofMaxSize(120)
        .withSizeDistribution(RandomDistribution.uniform());
  }

  @Property(tries = 20, edgeCases = EdgeCasesMode.NONE)
  void everyListingTableAndCounterMatchesTheModel(@ForAll("ops") List<Op> ops,
      @ForAll long seed) {
    NamespaceHarness h = new NamespaceHarness(om, CLOCK, "v" + TRIES.incrementAndGet() + "x",
        VOLUMES);
    for (Op op : ops) {
      h.apply(op);
    }
    Random random = new Random(seed);
    NamespaceListings listings = h.listings;
    listings.checkAllListings(random);
    h.assertTables();
    h.assertCounters();

    h.purgeToExhaustion(random);
    h.assertTables();
    h.assertCounters();
    for (String b : NamespaceHarness.OBS) {
      listings.checkListing(listings.listOpenFiles(h.model.bucket(b)), random);
      listings.checkListing(listings.listUploads(b, "", null, null), random);
    }
    for (String b : NamespaceHarness.FSO) {
      listings.checkListing(listings.listOpenFiles(h.model.bucket(b)), random);
      listings.checkListing(listings.listStatus(h.model.bucket(b), "", true, null, true), random);
    }
  }
}
