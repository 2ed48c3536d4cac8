package io.sediment.om.core;

import io.sediment.db.DBDefinition;
import io.sediment.db.TableDefinition;
import io.sediment.db.codec.ByteArrayCodec;
import io.sediment.db.codec.ProtoCodec;
import io.sediment.db.codec.StringCodec;
import io.sediment.proto.om.AuthToken;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.PartInfo;
import io.sediment.proto.om.PrefixInfo;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.VolumeInfo;

/**
 * The om-metadata store layout (DESIGN §3): one column family per table, keys in the formats of
 * {@link OmKeys} (strict UTF-8 strings), values protobuf messages of the {@code proto} module.
 * Queue-like tables whose rows are deleted soon after they are written (pending deletes, open
 * keys) are declared delete-heavy.
 */
public final class OmDBDefinition {

  private OmDBDefinition() {
  }

  public static final String STORE_NAME = "om";

  public static final TableDefinition<String, VolumeInfo> VOLUME_TABLE =
      TableDefinition.of("volumeTable", StringCodec.get(),
          ProtoCodec.of(VolumeInfo.class, VolumeInfo.parser()));

  public static final TableDefinition<String, BucketInfo> BUCKET_TABLE =
      TableDefinition.of("bucketTable", StringCodec.get(),
          ProtoCodec.of(BucketInfo.class, BucketInfo.parser()));

  /** OBJECT_STORE and LEGACY keys: {@code /volume/bucket/key}. */
  public static final TableDefinition<String, KeyInfo> KEY_TABLE =
      TableDefinition.of("keyTable", StringCodec.get(), keyInfoCodec());

  /** FSO directories: {@code /volumeId/bucketId/parentId/name}. */
  public static final TableDefinition<String, DirectoryInfo> DIRECTORY_TABLE =
      TableDefinition.of("directoryTable", StringCodec.get(),
          ProtoCodec.of(DirectoryInfo.class, DirectoryInfo.parser()));

  /** FSO files: {@code /volumeId/bucketId/parentId/name}. */
  public static final TableDefinition<String, KeyInfo> FILE_TABLE =
      TableDefinition.of("fileTable", StringCodec.get(), keyInfoCodec());

  /** OBJECT_STORE and LEGACY keys being written: {@code /volume/bucket/key/<clientId>}. */
  public static final TableDefinition<String, KeyInfo> OPEN_KEY_TABLE =
      TableDefinition.of("openKeyTable", StringCodec.get(), keyInfoCodec()).asDeleteHeavy();

  /** FSO files being written: {@code /volumeId/bucketId/parentId/name/<clientId>}. */
  public static final TableDefinition<String, KeyInfo> OPEN_FILE_TABLE =
      TableDefinition.of("openFileTable", StringCodec.get(), keyInfoCodec()).asDeleteHeavy();

  /** Deleted and overwritten key versions awaiting purge: {@code /volume/bucket/key/<objectId>}. */
  public static final TableDefinition<String, KeyInfo> DELETED_TABLE =
      TableDefinition.of("deletedTable", StringCodec.get(), keyInfoCodec()).asDeleteHeavy();

  /** Deleted FSO directories awaiting a subtree purge: {@code /vid/bid/parentId/name/<objectId>}. */
  public static final TableDefinition<String, KeyInfo> DELETED_DIRECTORY_TABLE =
      TableDefinition.of("deletedDirectoryTable", StringCodec.get(), keyInfoCodec()).asDeleteHeavy();

  /** Multipart uploads in progress: {@code /volume/bucket/key/<uploadId>}. */
  public static final TableDefinition<String, MultipartUploadInfo> MULTIPART_INFO_TABLE =
      TableDefinition.of("multipartInfoTable", StringCodec.get(),
          ProtoCodec.of(MultipartUploadInfo.class, MultipartUploadInfo.parser()));

  /**
   * The parts of the multipart uploads in progress: {@code <uploadId>/<partNumber>} (five digits,
   * so the parts of an upload sort by number and are one range).
   */
  public static final TableDefinition<String, PartInfo> MULTIPART_PARTS_TABLE =
      TableDefinition.of("multipartPartsTable", StringCodec.get(),
          ProtoCodec.of(PartInfo.class, PartInfo.parser()));

  /** Snapshots: {@code /volume/bucket/snapshotName}. */
  public static final TableDefinition<String, SnapshotInfo> SNAPSHOT_INFO_TABLE =
      TableDefinition.of("snapshotInfoTable", StringCodec.get(),
          ProtoCodec.of(SnapshotInfo.class, SnapshotInfo.parser()));

  /**
   * Store bookkeeping: the next object id ({@link #META_NEXT_OBJECT_ID}, 8 bytes big-endian) and
   * the continuation-token secret ({@link #META_TOKEN_SECRET}) and, in a replicated store, the last
   * applied log entry ({@link #META_LAST_APPLIED}, see {@link LogPosition}).
   */
  public static final TableDefinition<String, byte[]> META_TABLE =
      TableDefinition.of("metaTable", StringCodec.get(), ByteArrayCodec.get());

  public static final String META_NEXT_OBJECT_ID = "nextObjectId";
  public static final String META_TOKEN_SECRET = "listTokenSecret";
  public static final String META_LAST_APPLIED = "lastAppliedLogEntry";
  public static final String META_TOKEN_SECRET_ADOPTED = "listTokenSecretAdopted";

  /**
   * Bearer tokens a server accepts, by token id: who each is for, a salted hash of its secret
   * (never the secret), its creation, expiry and revocation ({@link io.sediment.om.credentials}).
   */
  public static final TableDefinition<String, AuthToken> AUTH_TOKEN_TABLE =
      TableDefinition.of("authTokenTable", StringCodec.get(),
          ProtoCodec.of(AuthToken.class, AuthToken.parser()));

  /**
   * ACLs on key-name prefixes of OBJECT_STORE and LEGACY buckets: {@code /volume/bucket/prefix},
   * the prefix ending with {@code /} ({@link io.sediment.om.aclstore.PrefixAcls}).
   */
  public static final TableDefinition<String, PrefixInfo> PREFIX_TABLE =
      TableDefinition.of("prefixTable", StringCodec.get(),
          ProtoCodec.of(PrefixInfo.class, PrefixInfo.parser()));

  /** The whole layout. */
  public static final DBDefinition DEFINITION = DBDefinition.of(STORE_NAME,
      VOLUME_TABLE, BUCKET_TABLE, KEY_TABLE, DIRECTORY_TABLE, FILE_TABLE, OPEN_KEY_TABLE,
      OPEN_FILE_TABLE, DELETED_TABLE, DELETED_DIRECTORY_TABLE, MULTIPART_INFO_TABLE,
      MULTIPART_PARTS_TABLE,
      SNAPSHOT_INFO_TABLE, META_TABLE, AUTH_TOKEN_TABLE, PREFIX_TABLE);

  private static ProtoCodec<KeyInfo> keyInfoCodec() {
    return ProtoCodec.of(KeyInfo.class, KeyInfo.parser());
  }
}
