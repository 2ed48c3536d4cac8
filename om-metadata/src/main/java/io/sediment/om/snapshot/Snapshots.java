package io.sediment.om.snapshot;

import static io.sediment.om.core.OmDBDefinition.BUCKET_TABLE;
import static io.sediment.om.core.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.core.OmDBDefinition.SNAPSHOT_INFO_TABLE;

import io.sediment.db.DBStore;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.codec.Codec;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.listing.Cursor;
import io.sediment.om.listing.ListPage;
import io.sediment.om.listing.ObjectListings;
import io.sediment.om.listing.Page;
import io.sediment.om.listing.PageRequest;
import io.sediment.om.listing.Pager;
import io.sediment.om.listing.TableScan;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListKind;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.SnapshotStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import java.util.function.Function;

/**
 * Bucket snapshots: a named, read-only, point-in-time copy of the namespace, kept as a RocksDB
 * checkpoint of the whole store (hard links to the live SST files plus a copy of the manifest).
 *
 * <h2>Rows and directories</h2>
 * A snapshot is a snapshotInfoTable row {@code /volume/bucket/name} ({@link OmKeys#snapshotKey})
 * and, while it is {@link SnapshotStatus#SNAPSHOT_ACTIVE ACTIVE}, a checkpoint directory
 * {@code <store dir>/snapshots/<snapshotId>} ({@code checkpoint_dir} holds the id, relative to
 * that root).
 * <ul>
 *   <li><b>Create</b> takes the checkpoint first, without the store's write lock, and then
 *       records the row in one short write: foreground writes go on while RocksDB flushes the
 *       memtables and links the files. The checkpoint is still one point in the store's write
 *       order (see "Point in time" below); it does not hold the row itself. The checkpoint is
 *       written into a pending directory ({@code pending-}{@code <random>}), which the
 *       recording write renames (atomically, the snapshot root fsynced) to
 *       {@code snapshots/<snapshotId>} before it commits the row. If the checkpoint or the write
 *       fails, the directories are removed and no row is written ({@code INTERNAL} for a
 *       checkpoint that cannot be written). A crash before the row's commit leaves only an
 *       unreferenced directory, which the next open deletes. So an ACTIVE row always has its
 *       checkpoint. The row is synced to the WAL with the group commit, and that sync also covers
 *       every earlier write the checkpoint contains.
 *   <li><b>Delete</b> keeps the row with status {@code SNAPSHOT_DELETED} and its deletion time (as
 *       Ozone does until its purge), then closes the snapshot's cached store and removes the
 *       directory. A crash after the row's commit leaves a directory no ACTIVE row references,
 *       deleted at the next open. A deleted snapshot's name may be used again: creating it
 *       replaces the DELETED row.
 *   <li><b>Open</b> ({@link #Snapshots}) deletes every entry under the snapshot root that is not
 *       the directory of an ACTIVE row (crash leftovers, RocksDB's {@code .tmp} directories).
 * </ul>
 * {@link OmCounter#SNAPSHOTS} counts rows, ACTIVE or DELETED (store-wide only).
 * {@code path_previous_snapshot_id} and {@code global_previous_snapshot_id} are the snapshot
 * created just before this one in the same bucket and in the whole store, whatever its status now
 * (empty for the first); the chain heads are kept in metaTable.
 *
 * <h2>Point in time</h2>
 * A snapshot holds every write acknowledged before its create was called, none called after it
 * returned, each write whole, and with any write every write committed before it, though its
 * checkpoint is taken without the write lock: see {@link SnapshotCreation}.
 *
 * <h2>Reading a snapshot</h2>
 * Reads open the checkpoint as a store of its own (hdds-db has no read-only open; the copy is
 * ours and is never written) with auto compaction and tombstone tracking off and a small block
 * cache, once, and keep it until the snapshot is deleted or the store closes. Reads hold a read
 * lock for their duration; delete and close take the write lock to close the cached store, so a
 * read never sees a closed store and no handle outlives its snapshot.
 *
 * <h2>Tombstones</h2>
 * The checkpoint shares SST files with the live store by hard link; it is a separate database,
 * not a RocksDB snapshot, so it does not hold tombstones in the live store: compaction there runs
 * as usual (the replaced files' disk space stays allocated until the snapshot is deleted). What
 * pins tombstones in hdds-db is an open RocksDB snapshot (a {@code ReadView}, e.g. while a listing
 * page is read), which the compaction scheduler records as {@code PINNED}. The snapshot's own copy
 * keeps the tombstones it captured and is never compacted, so scans of a snapshot taken right
 * after mass deletes pay for them.
 *
 * <p>Thread-safe.
 */
public final class Snapshots {

  /** The directory under the store's data directory that holds the checkpoints. */
  public static final String ROOT_DIR = "snapshots";
  /**
   * Name prefix of a checkpoint being written, before the write that records its snapshot
   * renames it to the snapshot's id; such a directory is never the checkpoint of a row.
   */
  public static final String PENDING_PREFIX = SnapshotCreation.PENDING_PREFIX;

  private static final Codec<SnapshotInfo> SNAPSHOT_INFO = SNAPSHOT_INFO_TABLE.valueCodec();

  private final OmContext ctx;
  private final Pager pager;
  private final Path root;
  private final Table<String, SnapshotInfo> table;
  private final SnapshotRows rows;
  private final SnapshotStores stores;
  private final SnapshotCreation creation;

  /**
   * The snapshots of the store behind {@code ctx}, whose rows {@code rows} keeps and whose
   * checkpoints {@code stores} opens. Deletes every entry under the snapshot root that is not the
   * checkpoint of an ACTIVE snapshot (crash leftovers).
   */
  public Snapshots(OmContext ctx, Pager pager, SnapshotRows rows, SnapshotStores stores) {
    this.ctx = ctx;
    this.pager = pager;
    this.rows = rows;
    this.stores = stores;
    this.root = stores.root();
    this.table = ctx.table(SNAPSHOT_INFO_TABLE);
    this.creation = new SnapshotCreation(ctx, rows, root);
    stores.removeAllBut(rows.activeCheckpointDirs());
  }


  // ---- writes ----

  /**
   * Creates snapshot {@code name} of a bucket: a RocksDB checkpoint of the whole store under
   * {@code <store dir>/snapshots/<snapshotId>}, taken without the write lock and holding every
   * write acknowledged before the call, none called after it returns, and every write committed
   * before any write it holds ({@link SnapshotCreation}); then the ACTIVE snapshotInfo row, in a
   * short write. Snapshot names follow the S3 bucket naming rules. A snapshot does not hold
   * tombstones of the live store (see {@link Snapshots}).
   *
   * @throws OmException INVALID_ARGUMENT for a bad name, NOT_FOUND if the volume or bucket is
   *     absent (also if the bucket was deleted while the checkpoint was taken),
   *     FAILED_PRECONDITION if the bucket was deleted and created again meanwhile, ALREADY_EXISTS
   *     if an ACTIVE snapshot of that name exists, INTERNAL if the checkpoint cannot be written
   *     (then nothing is written)
   */
  public SnapshotInfo create(String volume, String bucket, String name) {
    checkNames(volume, bucket, name);
    return creation.create(volume, bucket, name);
  }

  /**
   * Deletes an ACTIVE snapshot: its row becomes DELETED with the deletion time, then its cached
   * store is closed (after reads in progress finish) and its checkpoint directory removed.
   *
   * @return the DELETED row
   * @throws OmException INVALID_ARGUMENT for a bad name, NOT_FOUND if the volume, bucket or an
   *     ACTIVE snapshot of that name is absent
   */
  public SnapshotInfo delete(String volume, String bucket, String name) {
    checkNames(volume, bucket, name);
    String key = OmKeys.snapshotKey(volume, bucket, name);
    SnapshotInfo deleted = ctx.write(txn -> {
      SnapshotInfo info = table.get(key);
      if (info == null || info.getStatus() != SnapshotStatus.SNAPSHOT_ACTIVE) {
        ctx.requireBucket(null, volume, bucket);
        throw notFound(volume, bucket, name);
      }
      SnapshotInfo row = info.toBuilder()
          .setStatus(SnapshotStatus.SNAPSHOT_DELETED)
          .setDeletionTime(txn.now())
          .build();
      table.putWithBatch(txn.batch(), key, row);
      return row;
    });
    stores.evict(deleted);
    return deleted;
  }

  /** A snapshot's id: a name-based UUID of the object id allocated for it, unique in the store. */
  static String snapshotId(long objectId) {
    return UUID.nameUUIDFromBytes(("snapshot:" + objectId).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  // ---- reads of the rows ----



  /**
   * The row of snapshot {@code name}, ACTIVE or DELETED.
   *
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume, bucket or snapshot)
   */
  public SnapshotInfo info(String volume, String bucket, String name) {
    checkNames(volume, bucket, name);
    SnapshotInfo info = table.get(OmKeys.snapshotKey(volume, bucket, name));
    if (info == null) {
      ctx.requireBucket(null, volume, bucket);
      throw notFound(volume, bucket, name);
    }
    return info;
  }

  /**
   * The first page of a bucket's ACTIVE snapshots: {@link #list(String, String, String, String,
   * int, String, boolean)} without a token and without DELETED snapshots.
   */
  public ListPage<SnapshotInfo> list(String volume, String bucket, String prefix,
      String prevSnapshot, int maxEntries) {
    return list(volume, bucket, prefix, prevSnapshot, maxEntries, null, false);
  }

  /**
   * One page of a bucket's snapshots whose names start with {@code prefix}, in name (UTF-8 byte)
   * order. The page starts after the token's last name when {@code token} is given, else after
   * {@code prevSnapshot} (exclusive; it need not exist), else at the first. DELETED snapshots are
   * listed only with {@code includeDeleted}. One bounded iterator over {@code /volume/bucket/prefix}
   * on one consistent view, positioned once; {@code truncated} is exact (rows of DELETED
   * snapshots are read past to decide it). Paging with the tokens (or with the last name as
   * {@code prevSnapshot}) to the end returns every listed snapshot once.
   *
   * @throws OmException INVALID_ARGUMENT for a bad argument, a page size outside {@code [0, cap]}
   *     or a token not issued for this bucket, prefix and {@code includeDeleted}; NOT_FOUND if
   *     the volume or bucket is absent
   */
  public ListPage<SnapshotInfo> list(String volume, String bucket, String prefix, String prevSnapshot,
      int maxEntries, String token, boolean includeDeleted) {
    OmValidation.checkBucketArgs(volume, bucket);
    OmValidation.checkOptionalText("Prefix", prefix);
    OmValidation.checkOptionalText("Previous snapshot", prevSnapshot);
    int max = ctx.checkPageSize("maxEntries", maxEntries);
    try (ReadView view = ctx.store().openReadView()) {
      BucketInfo info = ctx.requireBucket(view, volume, bucket);
      PageRequest request = PageRequest.of(ListKind.LIST_SNAPSHOTS, volume, bucket,
          info.getObjectId(), prefix).withFlag(PageRequest.INCLUDE_DELETED, includeDeleted);
      Page<SnapshotInfo> page = pager.page(request, token,
          Cursor.startAfter(prevSnapshot), max, TableScan.source(
              view.getTable(SNAPSHOT_INFO_TABLE.name()), OmKeys.bucketPrefix(volume, bucket),
              prefix, null, row -> {
                SnapshotInfo s = SNAPSHOT_INFO.fromPersistedFormat(row.value());
                return includeDeleted || s.getStatus() == SnapshotStatus.SNAPSHOT_ACTIVE ? s : null;
              }));
      return new ListPage<>(page.items(), page.truncated(), page.nextToken());
    }
  }

  // ---- reads of a snapshot's contents ----

  /**
   * Key {@code key} as ACTIVE snapshot {@code snapshotName} of an OBJECT_STORE or LEGACY bucket
   * holds it, whatever happened to it in the live store since.
   *
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume, bucket, snapshot, or the key in the
   *     snapshot), UNIMPLEMENTED if the bucket was FSO
   */
  public KeyInfo lookupKey(String volume, String bucket, String name, String key) {
    checkNames(volume, bucket, name);
    OmValidation.checkKeyName(key);
    return read(volume, bucket, name, snap -> {
      requireObjectStoreBucket(snap, volume, bucket, name);
      KeyInfo info = snap.getTable(KEY_TABLE).get(OmKeys.objectKey(volume, bucket, key));
      if (info == null) {
        throw OmException.notFound("Key '" + key + "' does not exist in snapshot '" + name
            + "' of '" + volume + "/" + bucket + "'");
      }
      return info;
    });
  }

  /**
   * One page of the keys of an OBJECT_STORE or LEGACY bucket as snapshot {@code name} holds them:
   * keys starting with {@code prefix}, after {@code startAfter} (exclusive; it need not exist), in
   * key order, exact {@code truncated}. Page with the last key returned as the next
   * {@code startAfter} ({@code nextToken} is always {@code null}: the snapshot never changes).
   *
   * @throws OmException INVALID_ARGUMENT (including {@code maxKeys} outside {@code [0, cap]});
   *     NOT_FOUND if the volume, bucket (live) or ACTIVE snapshot is absent; UNIMPLEMENTED if the
   *     bucket was FSO
   */
  public ListPage<KeyInfo> listKeys(String volume, String bucket, String name, String prefix,
      String startAfter, int maxKeys) {
    checkNames(volume, bucket, name);
    OmValidation.checkOptionalText("Prefix", prefix);
    OmValidation.checkOptionalText("Start-after", startAfter);
    int max = ctx.checkPageSize("maxKeys", maxKeys);
    return read(volume, bucket, name, snap -> {
      requireObjectStoreBucket(snap, volume, bucket, name);
      Page<KeyInfo> page = Pager.read(ObjectListings.keys(snap.getTable(KEY_TABLE.name()),
          volume, bucket, prefix), Cursor.startAfter(startAfter), max);
      return new ListPage<>(page.items(), page.truncated(), null);
    });
  }



  // ---- internals ----

  /**
   * Runs {@code body} on the store of ACTIVE snapshot {@code name} under the read lock: the row
   * is read under the lock, so a snapshot whose delete has closed its store is seen as DELETED.
   */
  private <T> T read(String volume, String bucket, String name, Function<DBStore, T> body) {
    return stores.read(() -> {
      SnapshotInfo info = table.get(OmKeys.snapshotKey(volume, bucket, name));
      if (info == null || info.getStatus() != SnapshotStatus.SNAPSHOT_ACTIVE) {
        ctx.requireBucket(null, volume, bucket);
        throw notFound(volume, bucket, name);
      }
      return info;
    }, body);
  }

  private static BucketInfo requireObjectStoreBucket(DBStore snap, String volume, String bucket,
      String name) {
    BucketInfo info = snap.getTable(BUCKET_TABLE).get(OmKeys.bucketKey(volume, bucket));
    if (info == null) {
      // Cannot happen for a snapshot of this bucket; the row would name another bucket.
      throw new OmException(Code.INTERNAL, "Snapshot '" + name + "' does not hold bucket '"
          + volume + "/" + bucket + "'");
    }
    if (info.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED) {
      throw new OmException(Code.UNIMPLEMENTED, "Bucket '" + volume + "/" + bucket
          + "' was FILE_SYSTEM_OPTIMIZED in snapshot '" + name
          + "'; use the file-system operations for its keys");
    }
    return info;
  }




  private static void checkNames(String volume, String bucket, String name) {
    OmValidation.checkBucketArgs(volume, bucket);
    OmValidation.checkResourceName("Snapshot", name);
  }

  private static OmException notFound(String volume, String bucket, String name) {
    return OmException.notFound("Snapshot '" + name + "' does not exist in '" + volume + "/"
        + bucket + "'");
  }
}
