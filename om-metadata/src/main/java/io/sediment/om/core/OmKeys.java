package io.sediment.om.core;

import java.nio.charset.StandardCharsets;

/**
 * The key formats of the om-metadata tables (DESIGN §3). All keys are UTF-8 strings compared
 * bytewise; {@code /} separates components.
 *
 * <ul>
 *   <li>volumeTable {@code /volume}; bucketTable {@code /volume/bucket}. Volume and bucket names
 *       cannot contain {@code /} (see {@link OmValidation}), so {@code /volume/} is exactly the
 *       buckets of one volume and {@code /volume/bucket/} exactly the keys of one bucket.
 *   <li>keyTable (OBJECT_STORE and LEGACY): {@code /volume/bucket/key}; the key may contain
 *       {@code /}.
 *   <li>openKeyTable: {@code /volume/bucket/key/<clientId>}; deletedTable:
 *       {@code /volume/bucket/key/<objectId>}; snapshotInfoTable {@code /volume/bucket/name}.
 *   <li>multipartInfoTable: {@code /volume/bucket/} + the key with each U+0000 written as
 *       U+0000 U+007F, then U+0000 {@code /<uploadId>} (see {@link #multipartKey}), so the
 *       table's byte order is exactly S3's upload order: key, then upload id.
 *   <li>FSO directoryTable and fileTable: {@code /volumeId/bucketId/parentId/name}, top-level
 *       entries having the bucket's id as parent; openFileTable adds {@code /<clientId>},
 *       deletedDirectoryTable {@code /<objectId>}.
 * </ul>
 *
 * <p>Every id in a key is written by {@link #id(long)}: exactly {@value #ID_WIDTH} lowercase hex
 * digits (the unsigned value, zero-padded). Fixed width makes the children of directory
 * {@code p} the one contiguous range starting {@code /vid/bid/p/}: no other id can start with
 * {@code p}'s digits followed by {@code /} (Ozone's decimal ids let {@code /1024/} sit next to
 * {@code /102444/...} and need care; here a prefix can simply never match a sibling), and a
 * suffix id is always the last {@value #ID_WIDTH} characters. Ids sort numerically as unsigned
 * values.
 */
public final class OmKeys {

  /** The component separator. */
  public static final char SEPARATOR = '/';
  /** Hex digits of every id in a key. */
  public static final int ID_WIDTH = 16;

  private OmKeys() {
  }

  /** {@code id} as exactly 16 lowercase hex digits (unsigned). */
  public static String id(long id) {
    String hex = Long.toHexString(id);
    return "0".repeat(ID_WIDTH - hex.length()) + hex;
  }

  /**
   * Parses an id written by {@link #id(long)}.
   *
   * @throws IllegalArgumentException if {@code hex} is not exactly 16 lowercase hex digits
   */
  public static long parseId(String hex) {
    if (hex.length() != ID_WIDTH) {
      throw new IllegalArgumentException("An id is " + ID_WIDTH + " hex digits: '" + hex + "'");
    }
    for (int i = 0; i < hex.length(); i++) {
      char c = hex.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        throw new IllegalArgumentException("Not a lowercase hex id: '" + hex + "'");
      }
    }
    return Long.parseUnsignedLong(hex, 16);
  }

  /** The id suffix of an open, deleted or deleted-directory key: its last 16 characters. */
  public static long suffixId(String key) {
    if (key.length() < ID_WIDTH + 1 || key.charAt(key.length() - ID_WIDTH - 1) != SEPARATOR) {
      throw new IllegalArgumentException("No id suffix in '" + key + "'");
    }
    return parseId(key.substring(key.length() - ID_WIDTH));
  }

  /** The key with its {@code /<id>} suffix removed. */
  public static String withoutSuffixId(String key) {
    suffixId(key);
    return key.substring(0, key.length() - ID_WIDTH - 1);
  }

  // ---- names (volumeTable, bucketTable, keyTable and the tables keyed like it) ----

  /** volumeTable key: {@code /volume}. */
  public static String volumeKey(String volume) {
    return SEPARATOR + volume;
  }

  /** The bucketTable prefix of a volume's buckets: {@code /volume/}. */
  public static String volumePrefix(String volume) {
    return SEPARATOR + volume + SEPARATOR;
  }

  /** bucketTable key: {@code /volume/bucket}. */
  public static String bucketKey(String volume, String bucket) {
    return SEPARATOR + volume + SEPARATOR + bucket;
  }

  /**
   * The prefix of a bucket's entries in keyTable, openKeyTable, deletedTable,
   * multipartInfoTable and snapshotInfoTable: {@code /volume/bucket/}.
   */
  public static String bucketPrefix(String volume, String bucket) {
    return bucketKey(volume, bucket) + SEPARATOR;
  }

  /** keyTable key: {@code /volume/bucket/key}. */
  public static String objectKey(String volume, String bucket, String key) {
    return bucketPrefix(volume, bucket) + key;
  }

  /** openKeyTable key: {@code /volume/bucket/key/<clientId>}. */
  public static String openKey(String volume, String bucket, String key, long clientId) {
    return objectKey(volume, bucket, key) + SEPARATOR + id(clientId);
  }

  /** deletedTable key: {@code /volume/bucket/key/<objectId>}; versions never collide. */
  public static String deletedKey(String volume, String bucket, String key, long objectId) {
    return objectKey(volume, bucket, key) + SEPARATOR + id(objectId);
  }

  /**
   * multipartInfoTable key: {@code /volume/bucket/} + {@link #multipartKeyName escaped key} +
   * U+0000 {@code /} + upload id. Unlike {@code key + "/" + uploadId}, whose byte order puts
   * {@code a-b/…} and {@code a.txt/…} before {@code a/…}, this order is exactly (key, upload id):
   * the terminator (bytes {@code 00 2f}) sorts below every continuation of a longer key (a byte
   * {@code >= 0x01}, or an escaped NUL, bytes {@code 00 7f}). The upload id is the last
   * {@value #ID_WIDTH} characters.
   */
  public static String multipartKey(String volume, String bucket, String key, String uploadId) {
    return bucketPrefix(volume, bucket) + multipartKeyName(key) + UPLOAD_SEPARATOR + uploadId;
  }

  /**
   * multipartPartsTable key: upload id, {@code /}, part number as five digits ({@code 00001} to
   * {@code 10000}), so an upload's parts are one range in part-number order.
   */
  public static String multipartPartKey(String uploadId, int partNumber) {
    return multipartPartsPrefix(uploadId) + String.format("%05d", partNumber);
  }

  /** The prefix of every multipartPartsTable row of an upload: {@code <uploadId>/}. */
  public static String multipartPartsPrefix(String uploadId) {
    return uploadId + SEPARATOR;
  }

  /** snapshotInfoTable key: {@code /volume/bucket/snapshotName}. */
  public static String snapshotKey(String volume, String bucket, String snapshot) {
    return bucketPrefix(volume, bucket) + snapshot;
  }

  // ---- FSO (directoryTable, fileTable, openFileTable, deletedDirectoryTable) ----

  /** The prefix of every FSO entry of a bucket: {@code /volumeId/bucketId/}. */
  public static String fsoBucketPrefix(long volumeId, long bucketId) {
    return SEPARATOR + id(volumeId) + SEPARATOR + id(bucketId) + SEPARATOR;
  }

  /**
   * The prefix of the children of directory {@code parentId} (the bucket id for the top level):
   * {@code /volumeId/bucketId/parentId/}; exactly those children, one contiguous range.
   */
  public static String childPrefix(long volumeId, long bucketId, long parentId) {
    return fsoBucketPrefix(volumeId, bucketId) + id(parentId) + SEPARATOR;
  }

  /** directoryTable and fileTable key: {@code /volumeId/bucketId/parentId/name}. */
  public static String pathKey(long volumeId, long bucketId, long parentId, String name) {
    return childPrefix(volumeId, bucketId, parentId) + name;
  }

  /** openFileTable key: {@code /volumeId/bucketId/parentId/name/<clientId>}. */
  public static String openFileKey(long volumeId, long bucketId, long parentId, String name,
      long clientId) {
    return pathKey(volumeId, bucketId, parentId, name) + SEPARATOR + id(clientId);
  }

  /** deletedDirectoryTable key: {@code /volumeId/bucketId/parentId/name/<objectId>}. */
  public static String deletedDirectoryKey(long volumeId, long bucketId, long parentId,
      String name, long objectId) {
    return pathKey(volumeId, bucketId, parentId, name) + SEPARATOR + id(objectId);
  }

  /** UTF-8 bytes of a key or prefix built here (names are validated, so this is strict). */
  public static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  // ---- multipart uploads (multipartInfoTable) ----

  /** Ends the key part of a multipartInfoTable key; the upload id follows. */
  public static final String UPLOAD_SEPARATOR = "\0/";
  /** How U+0000 inside a key is written in a multipartInfoTable key (sorts above the separator). */
  private static final String ESCAPED_NUL = "\0\177";

  /**
   * A key name (or key prefix) as written in multipartInfoTable keys: every U+0000 becomes
   * U+0000 U+007F, everything else is unchanged. Order- and prefix-preserving: keys
   * starting with {@code p} are exactly the rows starting with {@code bucketPrefix +
   * multipartKeyName(p)}.
   */
  public static String multipartKeyName(String key) {
    return key.indexOf('\0') < 0 ? key : key.replace("\0", ESCAPED_NUL);
  }

  /**
   * The multipartInfoTable prefix of the uploads of keys starting with {@code keyPrefix}
   * ({@code ""} for the whole bucket).
   */
  public static String multipartPrefix(String volume, String bucket, String keyPrefix) {
    return bucketPrefix(volume, bucket) + multipartKeyName(keyPrefix);
  }

  /**
   * The smallest multipartInfoTable key after every upload of {@code key}: the first upload at or
   * after it belongs to the next key in S3 order.
   */
  public static String multipartKeyAfterUploadsOf(String volume, String bucket, String key) {
    return bucketPrefix(volume, bucket) + multipartKeyName(key) + '\0'
        + (char) (SEPARATOR + 1);
  }

  // ---- FSO key parsing ----

  /**
   * The volume id of an FSO key ({@code /volumeId/bucketId/...}: directoryTable, fileTable,
   * openFileTable, deletedDirectoryTable).
   *
   * @throws IllegalArgumentException if {@code fsoKey} does not start with two ids
   */
  public static long fsoVolumeIdOf(String fsoKey) {
    checkFsoKey(fsoKey);
    return parseId(fsoKey.substring(1, 1 + ID_WIDTH));
  }

  /**
   * The bucket id of an FSO key ({@code /volumeId/bucketId/...}).
   *
   * @throws IllegalArgumentException if {@code fsoKey} does not start with two ids
   */
  public static long fsoBucketIdOf(String fsoKey) {
    checkFsoKey(fsoKey);
    return parseId(fsoKey.substring(2 + ID_WIDTH, 2 + 2 * ID_WIDTH));
  }

  /**
   * The parent id of an FSO entry key ({@code /volumeId/bucketId/parentId/name...}).
   *
   * @throws IllegalArgumentException if {@code fsoKey} does not start with three ids
   */
  public static long fsoParentIdOf(String fsoKey) {
    checkFsoKey(fsoKey);
    int from = 3 + 2 * ID_WIDTH;
    if (fsoKey.length() <= from + ID_WIDTH || fsoKey.charAt(from + ID_WIDTH) != SEPARATOR) {
      throw new IllegalArgumentException("Not an FSO entry key: '" + fsoKey + "'");
    }
    return parseId(fsoKey.substring(from, from + ID_WIDTH));
  }

  /**
   * The name of an FSO entry whose key carries an id suffix
   * ({@code /volumeId/bucketId/parentId/name/<id>}: openFileTable, deletedDirectoryTable).
   *
   * @throws IllegalArgumentException if {@code key} is not of that shape
   */
  public static String fsoNameOfSuffixed(String key) {
    fsoParentIdOf(key);
    suffixId(key);
    return key.substring(4 + 3 * ID_WIDTH, key.length() - ID_WIDTH - 1);
  }

  private static void checkFsoKey(String key) {
    int bucketEnd = 2 + 2 * ID_WIDTH;
    if (key.length() <= bucketEnd || key.charAt(0) != SEPARATOR
        || key.charAt(1 + ID_WIDTH) != SEPARATOR || key.charAt(bucketEnd) != SEPARATOR) {
      throw new IllegalArgumentException("Not an FSO key: '" + key + "'");
    }
  }
}
