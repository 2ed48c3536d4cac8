package io.sediment.db.managed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads what RocksDB's table properties do not expose: whether an SST's filter is partitioned.
 * The block-based format names its filter block in the metaindex as
 * {@code partitionedfilter.<policy>} or {@code fullfilter.<policy>}; the metaindex is never
 * compressed and stores every key whole, so the name appears verbatim in the file's tail.
 */
final class SstMetaIndex {

  private static final byte[] PARTITIONED = "partitionedfilter.".getBytes(StandardCharsets.US_ASCII);
  private static final int TAIL_BYTES = 64 << 10;

  private SstMetaIndex() {
  }

  static boolean hasPartitionedFilter(Path sst) {
    try {
      long size = Files.size(sst);
      byte[] tail;
      try (var in = Files.newInputStream(sst)) {
        in.skipNBytes(Math.max(0, size - TAIL_BYTES));
        tail = in.readAllBytes();
      }
      return indexOf(tail, PARTITIONED) >= 0;
    } catch (IOException e) {
      return false;
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
