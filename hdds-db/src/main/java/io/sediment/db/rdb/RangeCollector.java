package io.sediment.db.rdb;

import io.sediment.db.KeyFilter;
import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The iterator half of {@code getRangeKVs}: one positioning, then lazy reads until the page is
 * full, so the native iterator never moves past the last entry returned.
 */
final class RangeCollector {

  private RangeCollector() {
  }

  /**
   * Collects up to {@code count} entries from {@code it}, which is not yet positioned.
   *
   * @param startKey where to start, or {@code null} for the iterator's lower bound
   * @param startMustExist when true and the seek does not land exactly on {@code startKey}, the
   *     answer is empty
   * @param sequential stop at the first filtered-out entry after the first match
   */
  static List<KeyValue<byte[], byte[]>> collect(TableIterator<byte[], KeyValue<byte[], byte[]>> it,
      byte[] startKey, boolean startMustExist, int count, boolean sequential, KeyFilter[] filters) {
    if (startKey != null) {
      KeyValue<byte[], byte[]> landed = it.seek(startKey);
      if (startMustExist && (landed == null || !Arrays.equals(landed.getKey(), startKey))) {
        return List.of();
      }
    }
    List<KeyValue<byte[], byte[]>> out = new ArrayList<>(Math.min(count, 256));
    while (out.size() < count && it.hasNext()) {
      KeyValue<byte[], byte[]> kv = it.next();
      if (accepts(filters, kv.getKey())) {
        out.add(kv);
      } else if (sequential && !out.isEmpty()) {
        break;
      }
    }
    return out;
  }

  private static boolean accepts(KeyFilter[] filters, byte[] key) {
    for (KeyFilter f : filters) {
      if (!f.accept(key)) {
        return false;
      }
    }
    return true;
  }
}
