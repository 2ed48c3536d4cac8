package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.testing.LeakCheck;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.NamespaceHarness.Op;
import io.sediment.om.NamespaceListings.Lister;
import io.sediment.om.NamespaceListings.PagingLog;
import io.sediment.om.NamespaceModel.Item;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Random;
import java.util.Set;
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
 * Paging while the namespace changes: after a random history, random listings of every kind
 * (listKeys by tokens and by start-after, listObjectsV2, listObjectsV1, listStatus recursive and
 * not, listOpenFiles, listMultipartUploads, listSnapshots, listKeysInSnapshot, listVolumes,
 * listBuckets) are paged with small random page sizes while, between consecutive pages, up to
 * three writes of the full mix (keys, files, directories, renames, recursive deletes, multipart,
 * snapshots, buckets, volumes, purge steps, clock steps) run, aimed at the listed bucket and
 * mostly of kinds that can change the listing; one time in three, some or all of the items that
 * follow the cursor are also removed through the ordinary writes (deletes, recursive deletes,
 * commits of open entries, aborts), which is what can make a page that said "more" be followed
 * by an empty one.
 *
 * <p>What is asserted, for every listing:
 * <ol>
 *   <li>Each page is exactly what the model predicts at the moment it is read: the first
 *       {@code min(max, cap)} items after the cursor in the model's current state, and "more"
 *       ({@code truncated}/{@code isTruncated}) exactly when further items exist in that state.
 *       (A page is read on one consistent view, so this is exact even though the namespace
 *       changes between pages.)
 *   <li>The output is strictly increasing in the listing's order (so no item twice).
 *   <li>Every item present at the time of every page read (present throughout) appears exactly
 *       once; nothing appears that was not present at the time of some page read.
 *   <li>The "more before an empty page" rule: a page that says more is followed by an empty page
 *       only if every item that followed its cursor when it was read was gone when the next page
 *       was read. Equivalently: if any item after the cursor survives the writes in between, the
 *       next page is not empty. (Ozone's listings can say more and then return nothing with no
 *       write at all; that is the case this rules out.)
 * </ol>
 * A listed directory that disappears between pages must make the next page NOT_FOUND, as the
 * model predicts. Afterwards the tables and counters match the model.
 */
class InterleavedPagingPropertyTest {

  private static final int CAP = 5;

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
    dir = Files.createTempDirectory("om-interleaved-paging");
    om = OmMetadataStore.open(dir, NamespaceHarness.options(CLOCK, CAP));
  }

  @AfterContainer
  static void closeStore() throws IOException {
    om.close();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    assertEquals("", leaks.report(), "resources left after the store closed");
  }

  @Provide
  Arbitrary<List<Op>> history() {
    return NamespaceHarness.op().list().ofMinSize(30).ofMaxSize(100)
        .withSizeDistribution(RandomDistribution.uniform());
  }

  @Provide
  Arbitrary<List<Op>> writes() {
    return NamespaceHarness.op().list().ofMinSize(20).ofMaxSize(120);
  }

  @Property(tries = 25, edgeCases = EdgeCasesMode.NONE)
  void writesBetweenPagesNeverDuplicateDropOrInventItems(@ForAll("history") List<Op> history,
      @ForAll("writes") List<Op> writes, @ForAll long seed) {
    NamespaceHarness h = new NamespaceHarness(om, CLOCK, "i" + TRIES.incrementAndGet() + "x",
        VOLUMES);
    for (Op op : history) {
      h.apply(op);
    }
    Random random = new Random(seed);
    Iterator<Op> between = writes.iterator();
    for (int i = 0; i < 6; i++) {
      // Mostly the busiest bucket of each layout; the writes in between go to the same buckets.
      h.focusObs = random.nextInt(4) == 0 ? NamespaceListings.pick(random, NamespaceHarness.OBS)
          : NamespaceHarness.OBS[0];
      h.focusFso = random.nextInt(4) == 0 ? NamespaceListings.pick(random, NamespaceHarness.FSO)
          : NamespaceHarness.FSO[0];
      Lister lister = h.listings.randomLister(random, h.focusObs, h.model.bucket(h.focusFso));
      PagingLog log = new PagingLog();
      Set<Integer> relevant = relevantKinds(lister);
      List<Item> got = h.listings.drive(lister, random, () -> {
        // One time in three, remove some or all of the items that follow the cursor now (so
        // that "more" can be followed by an empty page).
        if (random.nextInt(3) == 0) {
          List<Item> next = lister.expected().items();
          int n = random.nextBoolean() ? next.size()
              : Math.min(next.size(), 1 + random.nextInt(2));
          for (Item item : next.subList(0, n)) {
            h.remove(lister, item);
          }
        }
        // Up to three writes from the mix; those that cannot touch this listing are skipped
        // half of the time, so most writes between pages hit what is being listed.
        for (int n = random.nextInt(4); n > 0 && between.hasNext(); ) {
          Op op = between.next();
          if (relevant.contains(op.kind()) || random.nextBoolean()) {
            h.apply(op);
            n--;
          }
        }
      }, log, 1 + random.nextInt(3));
      assertPagingProperties(lister, log, got);
    }
    h.assertTables();
    h.assertCounters();
  }

  /** The op kinds that can change what {@code lister} lists. */
  private static Set<Integer> relevantKinds(Lister lister) {
    String kind = lister.toString().substring(0, lister.toString().indexOf('('));
    return switch (kind) {
      case "listKeys", "listObjectsV2", "listObjectsV1" -> Set.of(NamespaceHarness.PUT_KEY,
          NamespaceHarness.PUT_KEYS, NamespaceHarness.DELETE_KEY, NamespaceHarness.RENAME_KEY,
          NamespaceHarness.COMMIT_SESSION, NamespaceHarness.MPU_COMPLETE);
      case "listStatus" -> Set.of(NamespaceHarness.MKDIR, NamespaceHarness.PUT_FILE,
          NamespaceHarness.PUT_FILES, NamespaceHarness.DELETE_FILE, NamespaceHarness.DELETE_DIR,
          NamespaceHarness.RENAME_PATH, NamespaceHarness.COMMIT_SESSION);
      case "listOpenFiles" -> Set.of(NamespaceHarness.OPEN_KEY, NamespaceHarness.OPEN_FILE,
          NamespaceHarness.COMMIT_SESSION, NamespaceHarness.EXPIRE_OPEN_KEYS,
          NamespaceHarness.EXPIRE_OPEN_FILES, NamespaceHarness.DELETE_DIR,
          NamespaceHarness.PURGE_DIRECTORIES, NamespaceHarness.PUT_KEY);
      case "listMultipartUploads" -> Set.of(NamespaceHarness.MPU_INITIATE,
          NamespaceHarness.MPU_COMPLETE, NamespaceHarness.MPU_ABORT,
          NamespaceHarness.ABORT_EXPIRED_UPLOADS, NamespaceHarness.ADVANCE_CLOCK);
      case "listSnapshots", "listKeysInSnapshot" -> Set.of(NamespaceHarness.SNAPSHOT_CREATE,
          NamespaceHarness.SNAPSHOT_DELETE, NamespaceHarness.PUT_KEY, NamespaceHarness.DELETE_KEY);
      case "listVolumes" -> Set.of(NamespaceHarness.CREATE_VOLUME,
          NamespaceHarness.DELETE_VOLUME);
      default -> Set.of(NamespaceHarness.CREATE_BUCKET, NamespaceHarness.DELETE_BUCKET);
    };
  }

  /** Properties 2 to 4 of the class comment (1 is checked page by page by the driver). */
  private static void assertPagingProperties(Lister lister, PagingLog log, List<Item> got) {
    Comparator<String> order = lister.order();
    for (int i = 1; i < got.size(); i++) {
      String a = got.get(i - 1).id();
      String b = got.get(i).id();
      assertTrue(order.compare(a, b) < 0, lister + ": output must strictly increase: " + a
          + " then " + b + " in " + got);
    }
    if (log.pages.isEmpty()) {
      return; // the first page failed as the model predicted (the listed path is gone)
    }
    Set<String> throughout = new HashSet<>(log.fromStartIds.get(0));
    Set<String> ever = new HashSet<>();
    for (Set<String> ids : log.fromStartIds) {
      throughout.retainAll(ids);
      ever.addAll(ids);
    }
    Map<String, Integer> seen = new HashMap<>();
    for (Item item : got) {
      seen.merge(item.id(), 1, Integer::sum);
      assertTrue(ever.contains(item.id()), lister + ": " + item
          + " was listed but not present at any page read");
    }
    for (String id : throughout) {
      assertEquals(1, seen.getOrDefault(id, 0), lister + ": " + id
          + " was present throughout and must be listed exactly once; got " + got);
    }
    for (int k = 0; k + 1 < log.pages.size(); k++) {
      NamespaceListings.Page page = log.pages.get(k);
      assertTrue(page.more(), "only the last page may say no more");
      List<String> expected = log.expectedIds.get(k);
      List<String> followed = new ArrayList<>(expected.subList(page.items().size(),
          expected.size()));
      assertFalse(followed.isEmpty(), lister + ": page " + k + " said more with nothing after it");
      boolean nextEmpty = log.pages.get(k + 1).items().isEmpty();
      boolean anySurvived = false;
      for (String id : followed) {
        anySurvived |= log.expectedIds.get(k + 1).contains(id);
      }
      assertTrue(!nextEmpty || !anySurvived, lister + ": page " + k + " said more and an item"
          + " after its cursor survived, yet page " + (k + 1) + " is empty");
    }
  }
}
