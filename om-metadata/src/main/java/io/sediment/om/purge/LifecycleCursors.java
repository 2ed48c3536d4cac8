package io.sediment.om.purge;

import static io.sediment.om.core.OmKeys.utf8;

import io.sediment.db.Table;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.WriteTxn;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The persisted cursors of {@link LifecycleScans}: one metaTable row per scan and bucket, under
 * {@code lifecycle/<bucketId>/}, holding the prefix the scan was started with and the last key it
 * examined. Stateless.
 */
public final class LifecycleCursors {

  private LifecycleCursors() {
  }

  /** A saved cursor: the prefix's UTF-8 length (4 bytes, big-endian), the prefix, the last key. */
  public static byte[] value(String prefix, String lastKey) {
    byte[] p = utf8(prefix);
    byte[] k = utf8(lastKey);
    return ByteBuffer.allocate(Integer.BYTES + p.length + k.length)
        .putInt(p.length).put(p).put(k).array();
  }

  /**
   * The last key of a saved cursor if it was saved with {@code prefix}; {@code null} if there is
   * none, it belongs to another prefix, or it is not in {@link #value}'s format.
   */
  public static String lastKey(byte[] saved, String prefix) {
    if (saved == null || saved.length < Integer.BYTES) {
      return null;
    }
    ByteBuffer in = ByteBuffer.wrap(saved);
    int prefixLength = in.getInt();
    byte[] p = utf8(prefix);
    if (prefixLength != p.length || in.remaining() < prefixLength
        || !Arrays.equals(saved, Integer.BYTES, Integer.BYTES + prefixLength, p, 0, p.length)) {
      return null;
    }
    return new String(saved, Integer.BYTES + prefixLength, in.remaining() - prefixLength,
        StandardCharsets.UTF_8);
  }

  /** The metaTable prefix of every lifecycle cursor of bucket {@code bucketId}. */
  public static String prefix(long bucketId) {
    return "lifecycle/" + OmKeys.id(bucketId) + "/";
  }

  /** Adds to {@code txn} the removal of every lifecycle cursor of a bucket being deleted. */
  public static void forgetBucket(WriteTxn txn, Table<String, byte[]> meta, long bucketId) {
    meta.deletePrefixWithBatch(txn.batch(), prefix(bucketId));
  }
}
