package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import io.sediment.db.testing.LeakCheck;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.fso.FsoPath;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Model-based property test of the FSO namespace: random sequences of mkdir, create+commit,
 * abandoned opens, file deletes, (recursive) directory deletes, renames and bounded purge steps
 * are applied to the store and to a {@code TreeMap} of paths (in {@link FsoPath#LISTING_ORDER};
 * value -1 for a directory, else the file size). Every call must succeed or fail with exactly the
 * code the model predicts. Afterwards {@code listStatus}, recursive from the root and
 * non-recursive for the root and random directories, paged with random page sizes and from
 * random start keys (existing or not), must concatenate to the model's listing; the counters must
 * equal a recount; and after purging everything with a random budget, the recursive listing still
 * matches and fileTable and directoryTable hold exactly the model's rows.
 *
 * <p>Names come from a small alphabet with shared prefixes and a character below {@code /}
 * ({@code a-}), so collisions, sibling traps and component-versus-string order are common. One
 * store serves every try; each try works in a fresh bucket, so other buckets' rows, queue rows
 * and tombstones are always around.
 */
class FsoModelPropertyTest {

  private static final String[] NAMES = {"a", "a1", "ab", "a-", "b", "\u00e9"};
  private static final String V = "vol";

  private static Path dir;
  private static OmMetadataStore om;
  private static final AtomicInteger BUCKETS = new AtomicInteger();

  /** The Jupiter leak check does not run on jqwik containers: this one covers the container. */
  private static LeakCheck leaks;

  @BeforeContainer
  static void openStore() throws IOException {
    leaks = LeakCheck.begin();
    dir = Files.createTempDirectory("om-fso-property");
    om = OmMetadataStore.open(dir, OmStoreOptions.defaults().withMaxListSize(50)
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
    om.createVolume(V, "alice");
  }

  @AfterContainer
  static void closeStore() throws IOException {
    om.close();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    assertEquals("", leaks.report(), "resources left after the store closed");
  }

  /**
   * kind: 0 mkdir, 1 put, 2 delete file, 3 delete dir, 4 rename, 5 purge, 6 open only, 7 put
   * {@code n} files into directory {@code path} (bushy directories). Four times
   * in five, {@code pick} aims the op at the model: creates go into an existing directory (bushy
   * trees), deletes and renames at an existing entry, rename targets into an existing directory;
   * the rest keep the random paths (deep, often missing).
   */
  record Op(int kind, String path, String other, int n, boolean flag, int pick) {
  }

  @Provide
  Arbitrary<String> paths() {
    return Arbitraries.of(NAMES).list().ofMinSize(1).ofMaxSize(3).map(l -> String.join("/", l));
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Integer> kind = Arbitraries.frequency(
        Tuple.of(3, 0), Tuple.of(6, 1), Tuple.of(2, 2),
        Tuple.of(2, 3), Tuple.of(2, 4), Tuple.of(1, 5),
        Tuple.of(1, 6), Tuple.of(2, 7));
    Arbitrary<Op> op = Combinators.combine(kind, paths(), paths(),
        Arbitraries.integers().between(1, 6), Arbitraries.of(true, false),
        Arbitraries.integers().between(0, 999)).as(Op::new);
    return op.list().ofMinSize(5).ofMaxSize(30).withSizeDistribution(RandomDistribution.uniform());
  }

  @Property(tries = 100)
  void listingsAndCountersMatchTheModel(@ForAll("ops") List<Op> ops, @ForAll long seed) {
    String b = "bkt" + BUCKETS.incrementAndGet();
    BucketInfo bucket = om.createBucket(V, b, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    Model model = new Model();
    for (Op op : ops) {
      apply(b, model, op);
    }
    Random random = new Random(seed);
    checkListings(b, model, random);
    FsoTestSupport.assertCountersExact(om);

    // Tiny budgets half of the time, so directories are often purged in several parts.
    FsoTestSupport.purgeAll(om, 1 + random.nextInt(random.nextBoolean() ? 3 : 20));
    assertEquals(model.listing("", true), statuses(FsoTestSupport.listAll(om, V, b, "", true, null,
        1 + random.nextInt(10))), "recursive listing of the root after the purge");
    String prefix = OmKeys.fsoBucketPrefix(bucket.getVolumeId(), bucket.getObjectId());
    assertEquals(model.count(true),
        FsoTestSupport.keys(om, OmDBDefinition.DIRECTORY_TABLE, prefix).size());
    assertEquals(model.count(false),
        FsoTestSupport.keys(om, OmDBDefinition.FILE_TABLE, prefix).size());
    assertEquals(List.of(),
        FsoTestSupport.keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE, prefix));
    FsoTestSupport.assertCountersExact(om);
  }

  private static void apply(String b, Model m, Op input) {
    Op op = m.aim(input);
    String p = op.path();
    OmException.Code expected;
    Runnable call;
    Runnable onSuccess;
    switch (op.kind()) {
      case 0 -> {
        expected = m.mkdirOutcome(p);
        call = () -> om.fso().createDirectory(V, b, p);
        onSuccess = () -> m.mkdirs(p, true);
      }
      case 1 -> {
        expected = m.createFileOutcome(p);
        call = () -> {
          OpenKeySession s = om.fso().createFile(V, b, p, null);
          om.fso().commitFile(V, b, p, s.clientId(), op.n());
        };
        onSuccess = () -> {
          m.mkdirs(p, false);
          m.tree.put(p, (long) op.n());
        };
      }
      case 6 -> {
        expected = m.createFileOutcome(p);
        call = () -> om.fso().createFile(V, b, p, null);
        onSuccess = () -> m.mkdirs(p, false);
      }
      case 2 -> {
        expected = m.deleteFileOutcome(p);
        call = () -> om.fso().deleteFile(V, b, p);
        onSuccess = () -> m.tree.remove(p);
      }
      case 3 -> {
        expected = m.deleteDirOutcome(p, op.flag());
        call = () -> om.fso().deleteDirectory(V, b, p, op.flag());
        onSuccess = () -> m.removeSubtree(p);
      }
      case 4 -> {
        expected = m.renameOutcome(p, op.other());
        call = () -> om.fso().rename(V, b, p, op.other());
        onSuccess = () -> m.move(p, op.other());
      }
      case 5 -> {
        om.fso().purgeDeletedDirectories(op.n());
        return;
      }
      case 7 -> {
        for (int i = 0; i < op.n(); i++) {
          apply(b, m, new Op(1, p + "/" + NAMES[i], op.other(), i + 1, op.flag(), 0));
        }
        return;
      }
      default -> throw new AssertionError(op);
    }
    try {
      call.run();
      if (expected != null) {
        fail(op + " succeeded; the model expected " + expected);
      }
      onSuccess.run();
    } catch (OmException e) {
      assertEquals(expected, e.code(), () -> op + ": " + e.getMessage());
    }
  }

  private static void checkListings(String b, Model m, Random random) {
    List<String> everything = m.listing("", true);
    assertEquals(everything, statuses(FsoTestSupport.listAll(om, V, b, "", true, null,
        1 + random.nextInt(10))), "recursive listing of the root");
    List<String> dirs = new ArrayList<>();
    dirs.add("");
    for (Map.Entry<String, Long> e : m.tree.entrySet()) {
      if (e.getValue() < 0) {
        dirs.add(e.getKey());
      }
    }
    // The root and up to three other directories.
    for (int i = 0; i < Math.min(4, dirs.size()); i++) {
      String d = i == 0 ? "" : dirs.get(1 + random.nextInt(dirs.size() - 1));
      assertEquals(m.listing(d, false), statuses(FsoTestSupport.listAll(om, V, b, d, false, null,
          1 + random.nextInt(5))), "children of '" + d + "'");
    }
    // From random start keys, existing or not, below random directories.
    for (int i = 0; i < 2; i++) {
      String d = dirs.get(random.nextInt(dirs.size()));
      String start = FsoPath.join(d, randomPath(random));
      for (boolean recursive : new boolean[] {false, true}) {
        List<String> expected = new ArrayList<>();
        for (String item : m.listing(d, recursive)) {
          if (FsoPath.LISTING_ORDER.compare(pathOf(item), start) > 0) {
            expected.add(item);
          }
        }
        assertEquals(expected, statuses(FsoTestSupport.listAll(om, V, b, d, recursive, start,
            1 + random.nextInt(4))), "below '" + d + "' after '" + start + "' rec=" + recursive);
      }
    }
  }

  private static String pathOf(String item) {
    int hash = item.indexOf('#');
    return item.substring(2, hash < 0 ? item.length() : hash);
  }

  private static String randomPath(Random random) {
    int depth = 1 + random.nextInt(3);
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < depth; i++) {
      parts.add(NAMES[random.nextInt(NAMES.length)]);
    }
    return String.join("/", parts);
  }

  /** Listing items as the model writes them: {@code "D:path"} or {@code "F:path"} plus size. */
  private static List<String> statuses(List<FileStatus> page) {
    List<String> out = new ArrayList<>();
    for (FileStatus s : page) {
      out.add(s.isDirectory() ? "D:" + s.path() : "F:" + s.path() + "#" + s.size());
    }
    return out;
  }

  /** The reference namespace: path to -1 (directory) or the file size. */
  private static final class Model {
    final TreeMap<String, Long> tree = new TreeMap<>(FsoPath.LISTING_ORDER);

    /** {@code op} with its paths aimed at existing entries (see {@link Op}). */
    Op aim(Op op) {
      if (op.kind() == 5 || tree.isEmpty() || op.pick() % 5 == 0) {
        return op;
      }
      List<String> dirs = new ArrayList<>();
      dirs.add("");
      tree.forEach((k, v) -> {
        if (v < 0) {
          dirs.add(k);
        }
      });
      if (op.kind() == 0 || op.kind() == 1 || op.kind() == 6 || op.kind() == 7) {
        // Creates go into an existing directory, which makes bushy trees.
        return new Op(op.kind(), inDir(dirs, op.pick(), op.path()), op.other(), op.n(), op.flag(),
            op.pick());
      }
      List<String> entries = new ArrayList<>(tree.keySet());
      if (op.kind() == 3 && op.pick() % 5 != 1 && dirs.size() > 1) {
        // Directory deletes mostly at a directory, the shallower the likelier (bigger subtrees).
        entries = dirs.subList(1, Math.min(dirs.size(), 1 + 1 + op.pick() % 3));
      }
      String path = entries.get(op.pick() % entries.size());
      String other = op.kind() == 4 && op.pick() % 5 != 1
          ? inDir(dirs, op.pick(), op.other()) : op.other();
      return new Op(op.kind(), path, other, op.n(), op.flag(), op.pick());
    }

    /** The last component of {@code path} in the directory {@code pick} selects. */
    private static String inDir(List<String> dirs, int pick, String path) {
      String leaf = path.substring(path.lastIndexOf('/') + 1);
      return FsoPath.join(dirs.get((pick / 5) % dirs.size()), leaf);
    }

    boolean isDir(String p) {
      Long v = tree.get(p);
      return v != null && v < 0;
    }

    boolean isFile(String p) {
      Long v = tree.get(p);
      return v != null && v >= 0;
    }

    static List<String> prefixes(String p) {
      List<String> out = new ArrayList<>();
      int at = -1;
      while ((at = p.indexOf('/', at + 1)) >= 0) {
        out.add(p.substring(0, at));
      }
      out.add(p);
      return out;
    }

    static boolean isUnder(String p, String ancestor) {
      return p.startsWith(ancestor + "/");
    }

    OmException.Code mkdirOutcome(String p) {
      List<String> pre = prefixes(p);
      for (int i = 0; i < pre.size(); i++) {
        if (isDir(pre.get(i))) {
          continue;
        }
        if (isFile(pre.get(i))) {
          return i == pre.size() - 1 ? OmException.Code.ALREADY_EXISTS
              : OmException.Code.FAILED_PRECONDITION;
        }
        return null;
      }
      return null;
    }

    OmException.Code createFileOutcome(String p) {
      List<String> pre = prefixes(p);
      for (int i = 0; i < pre.size() - 1; i++) {
        if (isDir(pre.get(i))) {
          continue;
        }
        return isFile(pre.get(i)) ? OmException.Code.FAILED_PRECONDITION : null;
      }
      return isDir(p) ? OmException.Code.ALREADY_EXISTS : null;
    }

    /** The code for a missing or non-directory ancestor of {@code p}, else null. */
    OmException.Code ancestors(String p, OmException.Code fileCode) {
      List<String> pre = prefixes(p);
      for (int i = 0; i < pre.size() - 1; i++) {
        if (!isDir(pre.get(i))) {
          return isFile(pre.get(i)) ? fileCode : OmException.Code.NOT_FOUND;
        }
      }
      return null;
    }

    OmException.Code deleteFileOutcome(String p) {
      OmException.Code c = ancestors(p, OmException.Code.NOT_FOUND);
      if (c != null) {
        return c;
      }
      return isFile(p) ? null
          : isDir(p) ? OmException.Code.FAILED_PRECONDITION : OmException.Code.NOT_FOUND;
    }

    OmException.Code deleteDirOutcome(String p, boolean recursive) {
      OmException.Code c = ancestors(p, OmException.Code.NOT_FOUND);
      if (c != null) {
        return c;
      }
      if (isFile(p)) {
        return OmException.Code.FAILED_PRECONDITION;
      }
      if (!isDir(p)) {
        return OmException.Code.NOT_FOUND;
      }
      String next = tree.higherKey(p);
      boolean empty = next == null || !isUnder(next, p);
      return empty || recursive ? null : OmException.Code.FAILED_PRECONDITION;
    }

    OmException.Code renameOutcome(String from, String to) {
      if (isUnder(to, from)) {
        return OmException.Code.INVALID_ARGUMENT;
      }
      OmException.Code c = ancestors(from, OmException.Code.NOT_FOUND);
      if (c != null) {
        return c;
      }
      if (!tree.containsKey(from)) {
        return OmException.Code.NOT_FOUND;
      }
      c = ancestors(to, OmException.Code.FAILED_PRECONDITION);
      if (c != null) {
        return c;
      }
      return tree.containsKey(to) ? OmException.Code.ALREADY_EXISTS : null;
    }

    /** Adds the missing directories of {@code p} (all of it, or its ancestors only). */
    void mkdirs(String p, boolean includingLeaf) {
      List<String> pre = prefixes(p);
      int n = includingLeaf ? pre.size() : pre.size() - 1;
      for (int i = 0; i < n; i++) {
        tree.putIfAbsent(pre.get(i), -1L);
      }
    }

    void removeSubtree(String p) {
      tree.remove(p);
      tree.keySet().removeIf(k -> isUnder(k, p));
    }

    void move(String from, String to) {
      Map<String, Long> moved = new TreeMap<>(FsoPath.LISTING_ORDER);
      for (Map.Entry<String, Long> e : tree.entrySet()) {
        if (e.getKey().equals(from) || isUnder(e.getKey(), from)) {
          moved.put(to + e.getKey().substring(from.length()), e.getValue());
        }
      }
      removeSubtree(from);
      assertNull(tree.get(to));
      tree.putAll(moved);
    }

    List<String> listing(String dir, boolean recursive) {
      List<String> out = new ArrayList<>();
      for (Map.Entry<String, Long> e : tree.entrySet()) {
        String k = e.getKey();
        String rest = dir.isEmpty() ? k : isUnder(k, dir) ? k.substring(dir.length() + 1) : null;
        if (rest == null || (!recursive && rest.contains("/"))) {
          continue;
        }
        out.add(e.getValue() < 0 ? "D:" + k : "F:" + k + "#" + e.getValue());
      }
      return out;
    }

    long count(boolean dirs) {
      return tree.values().stream().filter(v -> (v < 0) == dirs).count();
    }
  }
}
