package io.sediment.om.core;

import io.sediment.db.BatchOperation;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * One write in progress inside {@link OmContext#write}: the batch it fills, the ids it allocates
 * and the counter changes it makes. Nothing is visible or persisted until the body returns; if it
 * throws, the batch is dropped, the ids are not consumed and the counters are unchanged.
 *
 * <p>Confined to the writing thread, which holds the store's write lock.
 */
public final class WriteTxn {

  private final BatchOperation batch;
  private final long now;
  private long nextObjectId;
  private final Map<OmCounter, Long> deltas = new EnumMap<>(OmCounter.class);
  private final Map<Long, Map<OmCounter, Long>> bucketDeltas = new HashMap<>();
  private final Set<Long> droppedBuckets = new HashSet<>();
  private final Set<String> changedVolumes = new HashSet<>();
  private final Set<String> changedBuckets = new HashSet<>();

  WriteTxn(BatchOperation batch, long nextObjectId, long now) {
    this.batch = batch;
    this.nextObjectId = nextObjectId;
    this.now = now;
  }

  /** The batch every change of this write goes into. */
  public BatchOperation batch() {
    return batch;
  }

  /** A new object, client or upload id, unique in this store; persisted with the batch. */
  public long allocateId() {
    return nextObjectId++;
  }

  /**
   * {@code count} consecutive new ids, for a write that numbers many objects at once (a bulk
   * load); returns the first. Persisted with the batch as {@link #allocateId} is.
   *
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public long allocateIds(long count) {
    if (count < 0) {
      throw new IllegalArgumentException("count must not be negative: " + count);
    }
    long first = nextObjectId;
    nextObjectId = Math.addExact(nextObjectId, count);
    return first;
  }

  /** The write's timestamp (epoch millis), one value for all its rows. */
  public long now() {
    return now;
  }

  /**
   * Adds {@code delta} (may be negative) to a namespace counter when the write commits.
   *
   * @throws OmException RESOURCE_EXHAUSTED if the counter would leave the range of a long
   */
  public void count(OmCounter counter, long delta) {
    if (delta != 0) {
      deltas.merge(counter, delta, (a, b) -> add(counter, a, b));
    }
  }

  /**
   * {@code a + b} for counter {@code counter}.
   *
   * @throws OmException RESOURCE_EXHAUSTED on overflow: the write is rejected and applies nothing
   */
  static long add(OmCounter counter, long a, long b) {
    try {
      return Math.addExact(a, b);
    } catch (ArithmeticException e) {
      throw new OmException(OmException.Code.RESOURCE_EXHAUSTED, "Counter " + counter
          + " would overflow (" + a + " + " + b + "); the write is rejected");
    }
  }

  /**
   * Adds {@code delta} to a counter of bucket {@code bucketId} (its object id) and to the
   * store-wide counter, when the write commits.
   */
  public void count(long bucketId, OmCounter counter, long delta) {
    count(counter, delta);
    if (delta != 0) {
      bucketDeltas.computeIfAbsent(bucketId, id -> new EnumMap<>(OmCounter.class))
          .merge(counter, delta, (a, b) -> add(counter, a, b));
    }
  }

  /**
   * As {@link #count(long, OmCounter, long)}, or store-wide only when {@code bucketId} is null
   * (the row belongs to a bucket that no longer exists).
   */
  public void countIn(Long bucketId, OmCounter counter, long delta) {
    if (bucketId == null) {
      count(counter, delta);
    } else {
      count(bucketId, counter, delta);
    }
  }

  /** Drops every counter of bucket {@code bucketId} when the write commits (the bucket is deleted). */
  public void dropBucketCounters(long bucketId) {
    droppedBuckets.add(bucketId);
  }

  /** Records that the volume row under {@code volumeKey} changes (for the parsed-row cache). */
  void changedVolume(String volumeKey) {
    changedVolumes.add(volumeKey);
  }

  /** Records that the bucket row under {@code bucketKey} changes (for the parsed-row cache). */
  void changedBucket(String bucketKey) {
    changedBuckets.add(bucketKey);
  }

  Set<String> changedVolumes() {
    return changedVolumes;
  }

  Set<String> changedBuckets() {
    return changedBuckets;
  }

  long nextObjectId() {
    return nextObjectId;
  }

  Map<OmCounter, Long> deltas() {
    return deltas;
  }

  Map<Long, Map<OmCounter, Long>> bucketDeltas() {
    return bucketDeltas;
  }

  Set<Long> droppedBuckets() {
    return droppedBuckets;
  }
}
