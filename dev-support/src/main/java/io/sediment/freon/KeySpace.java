package io.sediment.freon;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The names one run works on, and which of them exist. Prefilled keys are {@link #key(long)} for
 * indices {@code [0, live)} of the OBJECT_STORE bucket and {@link #file(long)} for
 * {@code [0, files)} of the FSO bucket's root; names sort as their indices. Deletes take keys the
 * run created first (a queue), then prefilled keys from the top index down, so lookups and pages
 * chosen below the live bound (less a margin for deletes in flight) find existing keys.
 * Thread-safe.
 */
public final class KeySpace {

  /** Entries in one listing page. */
  public static final int PAGE = 1_000;

  private final AtomicLong live;
  private final long files;
  private final String createTag;
  private final AtomicLong created = new AtomicLong();
  private final Queue<String> createdNames = new ConcurrentLinkedQueue<>();
  private final long margin;
  private final boolean floor;

  /**
   * @param live prefilled keys {@code [0, live)} that exist
   * @param files prefilled files of the FSO bucket
   * @param createTag part of every created name, unique to the run (so reruns never collide)
   * @param margin lookups stay this many indices below the live bound (deletes in flight)
   * @param floor for a floor's replay: deletes hand out fresh names (a floor's deletes write
   *     scratch rows) and never run out, and nothing is consumed
   */
  public KeySpace(long live, long files, String createTag, long margin, boolean floor) {
    this.live = new AtomicLong(live);
    this.files = files;
    this.createTag = createTag;
    this.margin = margin;
    this.floor = floor;
  }

  /**
   * This floor key space with its live bound lowered to {@code bound} when above it (the keys a
   * service phase left); returns this.
   */
  KeySpace startingAt(long bound) {
    live.accumulateAndGet(bound, Math::min);
    return this;
  }

  /** Name of prefilled key {@code i}. */
  public static String key(long i) {
    return String.format("key-%010d", i);
  }

  /** Name of prefilled file {@code i} in the FSO bucket's root. */
  public static String file(long i) {
    return String.format("f%010d", i);
  }

  /** Prefilled keys not deleted yet (an upper bound while deletes run). */
  public long live() {
    return live.get();
  }

  /** A name no key of this run or earlier runs has, for a create. */
  public String newName() {
    return "new-" + createTag + "-" + String.format("%010d", created.getAndIncrement());
  }

  /** Whether deletes take existing keys and so run out (false for a floor's key space). */
  public boolean deletesRunOut() {
    return !floor;
  }

  /** Remembers a name the run created, for later deletes. */
  public void created(String name) {
    createdNames.add(name);
  }

  /**
   * A key to delete, each handed out once; {@code null} when none is left (never for a floor's
   * key space, whose names are fresh).
   */
  public String toDelete() {
    if (floor) {
      return "gone-" + createTag + "-" + String.format("%010d", created.getAndIncrement());
    }
    String name = createdNames.poll();
    if (name != null) {
      return name;
    }
    long i = live.decrementAndGet();
    if (i < 0) {
      live.set(0);
      return null;
    }
    return key(i);
  }

  /**
   * Up to {@code n} keys to delete, each handed out once, as {@link #toDelete()} hands them out
   * (fewer only when fewer are left); {@code null} when none is left.
   */
  public List<String> toDelete(int n) {
    List<String> names = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String name = toDelete();
      if (name == null) {
        break;
      }
      names.add(name);
    }
    return names.isEmpty() ? null : names;
  }

  /** An existing prefilled key, chosen by {@code distribution}; {@code null} if none exists. */
  public String toLookup(Distribution distribution, SplittableRandom random) {
    long bound = live.get() - margin;
    if (bound < 1) {
      bound = live.get();
      if (bound < 1) {
        return null;
      }
    }
    return key(distribution.next(random, bound));
  }

  /**
   * The name a full page of the OBJECT_STORE bucket starts after ({@code ""}: the first page),
   * pages starting at multiples of {@link #PAGE}.
   */
  public String pageStart(Distribution distribution, SplittableRandom random) {
    return pageStart(live.get() - margin, distribution, random, false);
  }

  /** As {@link #pageStart}, over the FSO bucket's files. */
  public String filePageStart(Distribution distribution, SplittableRandom random) {
    return pageStart(files, distribution, random, true);
  }

  private static String pageStart(long count, Distribution distribution, SplittableRandom random,
      boolean fso) {
    long pages = count < PAGE ? 1 : (count - PAGE) / PAGE + 1;
    long start = distribution.next(random, pages) * PAGE;
    return start == 0 ? "" : fso ? file(start - 1) : key(start - 1);
  }
}
