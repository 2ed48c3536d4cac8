package io.sediment.om;

import static io.sediment.om.OmTestSupport.UTF8_ORDER;
import static io.sediment.om.OmTestSupport.items;
import static io.sediment.om.OmTestSupport.modelListing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import io.sediment.db.testing.LeakCheck;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableSet;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Model-based property tests of the OBJECT_STORE key namespace and its listings.
 *
 * <p>{@link #listingsMatchTheModel}: random sequences of key creates, overwrites, deletes (of
 * existing and missing keys) and abandoned opens over three buckets are applied to the store and
 * to a {@code TreeMap} model per bucket (UTF-8 byte order). Key names come from a small alphabet
 * with {@code /}, ASCII, a two-byte and a four-byte character, so prefixes, delimiters and
 * collisions are common. Afterwards, for random prefixes, delimiters and start-after values,
 * {@code listKeys} and {@code listObjectsV2} paged with random page sizes concatenate exactly to
 * the model's listing (no gap, no duplicate), every page's {@code truncated} is exact, KeyCount
 * is right, values are the latest committed versions, and deletedTable and openKeyTable hold
 * exactly one row per replaced/deleted version and per abandoned open.
 *
 * <p>{@link #writesBetweenPagesNeverDuplicateOrDropStableKeys}: random writes between pages;
 * the output is strictly ordered (no duplicates), contains every item of the keys present
 * throughout, and nothing that never existed.
 *
 * <p>One store serves every try; each try works in a fresh volume, so other volumes' data and
 * tombstones are always around.
 */
class ListingModelPropertyTest {

  private static final String[] TOKENS = {"a", "b", "/", "\u00e9", "\uD83D\uDE00", "-", "ab"};
  private static final String[] PREFIXES = {"", "a", "a/", "/", "\u00e9", "ab", "b/", "a/b"};
  private static final String[] DELIMITERS = {null, "/", "a", "\u00e9", "b/", "\uD83D\uDE00"};
  private static final String[] BUCKETS = {"bucket0", "bucket1", "bucket10"};

  private static Path dir;
  private static OmMetadataStore om;
  private static final AtomicInteger VOLUMES = new AtomicInteger();

  /** The Jupiter leak check does not run on jqwik containers: this one covers the container. */
  private static LeakCheck leaks;

  @BeforeContainer
  static void openStore() throws IOException {
    leaks = LeakCheck.begin();
    dir = Files.createTempDirectory("om-listing-property");
    om = OmMetadataStore.open(dir, OmStoreOptions.defaults().withMaxListSize(100));
  }

  @AfterContainer
  static void closeStore() throws IOException {
    om.close();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    assertEquals("", leaks.report(), "resources left after the store closed");
  }

  /** A write: kind 0 = put (create or overwrite), 1 = delete, 2 = open and abandon. */
  record Op(int kind, int bucket, String key) {
  }

  @Provide
  Arbitrary<String> keys() {
    return Arbitraries.of(TOKENS).list().ofMinSize(1).ofMaxSize(4).map(l -> String.join("", l));
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Op> op = Combinators.combine(
        Arbitraries.integers().between(0, 9).map(i -> i < 6 ? 0 : i < 9 ? 1 : 2),
        Arbitraries.integers().between(0, BUCKETS.length - 1),
        keys()).as(Op::new);
    return op.list().ofMinSize(0).ofMaxSize(40);
  }

  private static String newVolume() {
    String v = "vol" + VOLUMES.incrementAndGet();
    om.createVolume(v, "alice");
    for (String b : BUCKETS) {
      om.createBucket(v, b, BucketLayout.OBJECT_STORE, null, 0);
    }
    return v;
  }

  @Property(tries = 200)
  void listingsMatchTheModel(@ForAll("ops") List<Op> ops, @ForAll long seed) {
    String v = newVolume();
    List<TreeMap<String, Long>> model = new ArrayList<>();
    int[] replaced = new int[BUCKETS.length];
    int[] abandoned = new int[BUCKETS.length];
    for (int i = 0; i < BUCKETS.length; i++) {
      model.add(new TreeMap<>(UTF8_ORDER));
    }
    long size = 0;
    for (Op op : ops) {
      String b = BUCKETS[op.bucket()];
      TreeMap<String, Long> m = model.get(op.bucket());
      switch (op.kind()) {
        case 0 -> {
          OpenKeySession s = om.openKey(v, b, op.key(), null);
          om.commitKey(v, b, op.key(), s.clientId(), ++size);
          if (m.put(op.key(), size) != null) {
            replaced[op.bucket()]++;
          }
        }
        case 1 -> {
          if (m.remove(op.key()) != null) {
            om.deleteKey(v, b, op.key());
            replaced[op.bucket()]++;
          } else {
            OmException e = assertThrows(OmException.class, () -> om.deleteKey(v, b, op.key()));
            assertEquals(OmException.Code.NOT_FOUND, e.code());
          }
        }
        default -> {
          om.openKey(v, b, op.key(), null);
          abandoned[op.bucket()]++;
        }
      }
    }
    Random random = new Random(seed);
    for (int bi = 0; bi < BUCKETS.length; bi++) {
      String b = BUCKETS[bi];
      TreeMap<String, Long> m = model.get(bi);
      assertEquals(replaced[bi], count(OmDBDefinition.DELETED_TABLE.name(), v, b));
      assertEquals(abandoned[bi], count(OmDBDefinition.OPEN_KEY_TABLE.name(), v, b));
      List<String> startAfters = new ArrayList<>(List.of("", "a", "a/", "b", "\u00e9"));
      startAfters.addAll(m.keySet());
      for (int q = 0; q < 3; q++) {
        String prefix = PREFIXES[random.nextInt(PREFIXES.length)];
        String delimiter = DELIMITERS[random.nextInt(DELIMITERS.length)];
        String startAfter = random.nextInt(3) == 0 ? null
            : startAfters.get(random.nextInt(startAfters.size()));
        checkListKeys(v, b, m, prefix, startAfter, random);
        checkListObjectsV2(v, b, m.navigableKeySet(), prefix, delimiter, startAfter, random);
      }
    }
  }

  private static void checkListKeys(String v, String b, TreeMap<String, Long> m, String prefix,
      String startAfter, Random random) {
    List<String> expected = modelListing(m.navigableKeySet(), prefix, null, startAfter);
    List<String> got = new ArrayList<>();
    String token = null;
    for (int guard = 0; guard <= expected.size(); guard++) {
      int max = 1 + random.nextInt(6);
      ListPage<KeyInfo> page = om.listKeys(v, b, prefix, startAfter, max, token);
      assertTrue(page.items().size() <= max);
      for (KeyInfo k : page.items()) {
        got.add("K:" + k.getKeyName());
        assertEquals(m.get(k.getKeyName()), k.getDataSize(), "latest version of " + k.getKeyName());
      }
      assertEquals(got.size() < expected.size(), page.truncated(),
          "truncated must be exact; listed " + got.size() + " of " + expected.size());
      if (!page.truncated()) {
        assertNull(page.nextToken());
        break;
      }
      assertEquals(max, page.items().size(), "a truncated page is full");
      token = page.nextToken();
    }
    assertEquals(expected, got, "listKeys prefix=" + prefix + " startAfter=" + startAfter);
  }

  private static void checkListObjectsV2(String v, String b, NavigableSet<String> keys,
      String prefix, String delimiter, String startAfter, Random random) {
    List<String> expected = modelListing(keys, prefix, delimiter, startAfter);
    List<String> got = new ArrayList<>();
    String token = null;
    for (int guard = 0; guard <= expected.size(); guard++) {
      int max = 1 + random.nextInt(6);
      ListObjectsV2Result page = om.listObjectsV2(new ListObjectsV2Request(v, b, prefix,
          delimiter, startAfter, max, token));
      List<String> items = items(page);
      assertEquals(items.size(), page.keyCount());
      assertTrue(page.keyCount() <= max);
      got.addAll(items);
      assertEquals(got.size() < expected.size(), page.truncated(),
          "IsTruncated must be exact; listed " + got + " expected " + expected);
      if (!page.truncated()) {
        assertNull(page.nextContinuationToken());
        break;
      }
      assertEquals(max, page.keyCount(), "a truncated page is full");
      token = page.nextContinuationToken();
    }
    assertEquals(expected, got, "listObjectsV2 prefix=" + prefix + " delimiter=" + delimiter
        + " startAfter=" + startAfter);
  }

  private static int count(String table, String v, String b) {
    int n = 0;
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = om.dbStore().getTable(table)
        .iterator(OmKeys.utf8(OmKeys.bucketPrefix(v, b)), IteratorType.KEY_ONLY)) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  @Property(tries = 100)
  void writesBetweenPagesNeverDuplicateOrDropStableKeys(
      @ForAll("initialKeys") List<String> initial, @ForAll("ops") List<Op> writes,
      @ForAll long seed) {
    String v = newVolume();
    String b = BUCKETS[0];
    Random random = new Random(seed);
    TreeSet<String> live = new TreeSet<>(UTF8_ORDER);
    for (String k : initial) {
      OpenKeySession s = om.openKey(v, b, k, null);
      om.commitKey(v, b, k, s.clientId(), 1);
      live.add(k);
    }
    Set<String> throughout = new TreeSet<>(UTF8_ORDER);
    throughout.addAll(live);
    Set<String> ever = new HashSet<>(live);
    String prefix = PREFIXES[random.nextInt(PREFIXES.length)];
    int mode = random.nextInt(3);
    String delimiter = mode == 2 ? "/" : null;

    List<String> got = new ArrayList<>();
    String token = null;
    int w = 0;
    for (int guard = 0; guard < 1000; guard++) {
      int max = 1 + random.nextInt(4);
      boolean truncated;
      if (mode == 0) {
        ListPage<KeyInfo> page = om.listKeys(v, b, prefix, null, max, token);
        page.items().forEach(k -> got.add("K:" + k.getKeyName()));
        truncated = page.truncated();
        token = page.nextToken();
      } else {
        ListObjectsV2Result page = om.listObjectsV2(new ListObjectsV2Request(v, b, prefix,
            delimiter, null, max, token));
        got.addAll(items(page));
        truncated = page.truncated();
        token = page.nextContinuationToken();
      }
      if (!truncated) {
        break;
      }
      // Up to three writes to the bucket (the other buckets' ops are ignored) between pages.
      for (int n = random.nextInt(4); n > 0 && w < writes.size(); w++) {
        Op op = writes.get(w);
        if (op.bucket() != 0) {
          continue;
        }
        n--;
        if (op.kind() == 1 && live.contains(op.key())) {
          om.deleteKey(v, b, op.key());
          live.remove(op.key());
          throughout.remove(op.key());
        } else if (op.kind() != 1) {
          OpenKeySession s = om.openKey(v, b, op.key(), null);
          om.commitKey(v, b, op.key(), s.clientId(), 2);
          live.add(op.key());
          ever.add(op.key());
        }
      }
    }
    for (int i = 1; i < got.size(); i++) {
      assertTrue(UTF8_ORDER.compare(got.get(i - 1).substring(2), got.get(i).substring(2)) < 0,
          "strictly increasing, so no duplicates: " + got);
    }
    NavigableSet<String> stable = new TreeSet<>(UTF8_ORDER);
    stable.addAll(throughout);
    List<String> mustAppear = modelListing(stable, prefix, delimiter, null);
    for (String item : mustAppear) {
      assertTrue(got.contains(item), item + " was present throughout but not listed: " + got);
    }
    NavigableSet<String> everSorted = new TreeSet<>(UTF8_ORDER);
    everSorted.addAll(ever);
    List<String> possible = modelListing(everSorted, prefix, delimiter, null);
    for (String item : got) {
      assertTrue(possible.contains(item), item + " never existed");
    }
  }

  @Provide
  Arbitrary<List<String>> initialKeys() {
    return keys().list().ofMinSize(0).ofMaxSize(30);
  }
}
