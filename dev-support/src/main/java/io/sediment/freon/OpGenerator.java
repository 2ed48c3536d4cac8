package io.sediment.freon;

import java.util.List;
import java.util.SplittableRandom;

/**
 * One client's stream of operations: the workload's draw of a kind, then its key from the key
 * space. Not thread-safe (one per client); seeded, so the floors replay the same kinds.
 */
final class OpGenerator {

  private final Workload workload;
  private final KeySpace keys;
  private final Distribution distribution;
  private final SplittableRandom random;
  private final int batch;

  /** @param batch keys per {@link OpType#DELETE_BATCH} */
  OpGenerator(Workload workload, KeySpace keys, Distribution distribution, long seed, int batch) {
    this.workload = workload;
    this.keys = keys;
    this.distribution = distribution;
    this.random = new SplittableRandom(seed);
    this.batch = batch;
  }

  /** The next operation, or {@code null} when the key space has nothing left for it. */
  Op next() {
    OpType type = workload.draw(random);
    String name;
    switch (type) {
      case CREATE:
        name = keys.newName();
        break;
      case LOOKUP:
        name = keys.toLookup(distribution, random);
        break;
      case LIST:
      case LIST_DELIMITER:
        name = keys.pageStart(distribution, random);
        break;
      case LIST_STATUS:
        name = keys.filePageStart(distribution, random);
        break;
      case DELETE:
        name = keys.toDelete();
        break;
      case DELETE_BATCH: {
        List<String> names = keys.toDelete(batch);
        return names == null ? null : Op.deleteBatch(names);
      }
      default:
        throw new AssertionError(type);
    }
    return name == null ? null : new Op(type, name);
  }
}
