package io.sediment.om.keys;

import static io.sediment.om.core.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.core.OmDBDefinition.OPEN_KEY_TABLE;

import com.google.protobuf.ByteString;
import io.sediment.db.Table;
import io.sediment.om.acl.DefaultAcls;
import io.sediment.om.aclstore.PrefixAcls;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.ReplicationConfigs;
import io.sediment.om.core.StoredRows;
import io.sediment.om.core.WriteTxn;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.ReplicationConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keys of OBJECT_STORE and LEGACY buckets: open (an openKeyTable row under a new client id),
 * commit (the open row becomes the keyTable row; the version it replaces moves to deletedTable),
 * lookup, delete (one key, or a page of them in one batch) and rename. Every write is one {@link OmContext#write} transaction that checks
 * first and changes nothing when it throws. FSO buckets answer UNIMPLEMENTED. Thread-safe.
 */
public final class ObjectKeys {

  private final OmContext ctx;
  private final Table<String, KeyInfo> keyTable;
  /** keyTable's rows as stored, for {@link #lookupEncoded}. */
  private final Table<byte[], byte[]> keyRows;
  private final Table<String, KeyInfo> openKeyTable;
  private final PrefixAcls prefixes;

  public ObjectKeys(OmContext ctx) {
    this.ctx = ctx;
    this.prefixes = new PrefixAcls(ctx);
    this.keyTable = ctx.table(KEY_TABLE);
    this.keyRows = ctx.store().getTable(KEY_TABLE.name());
    this.openKeyTable = ctx.table(OPEN_KEY_TABLE);
  }

  /**
   * Opens a key for writing under a new client id, which {@link #commit} must present.
   *
   * @param owner the owner; {@code null} or empty for the bucket's owner
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume/bucket), UNIMPLEMENTED for FSO buckets
   */
  public OpenKeySession open(String volume, String bucket, String key, String owner) {
    return open(volume, bucket, key, owner, null);
  }

  /**
   * {@link #open(String, String, String, String)} with the key's replication config, which the
   * open row records and the commit keeps.
   *
   * @param replication null for the bucket's default, else the store's
   *     ({@link ReplicationConfigs#resolve}, from the bucket row the write reads)
   * @throws OmException as that method, and INVALID_ARGUMENT for a config
   *     {@link ReplicationConfigs#check} refuses
   */
  public OpenKeySession open(String volume, String bucket, String key, String owner,
      ReplicationConfig replication) {
    OmValidation.checkKeyArgs(volume, bucket, key);
    OmValidation.checkOwner(owner);
    ReplicationConfig requested = replication == null ? null : ReplicationConfigs.check(replication);
    return ctx.write(txn -> {
      BucketInfo info = ctx.requireObjectStoreBucket(null, volume, bucket);
      ReplicationConfig config = ReplicationConfigs.resolve(requested, info,
          ctx.options().defaultReplication());
      long objectId = txn.allocateId();
      long clientId = txn.allocateId();
      String own = owner == null || owner.isEmpty() ? info.getOwner() : owner;
      KeyInfo open = openRow(volume, bucket, key, own, objectId, clientId, txn.now(),
          DefaultAcls.forKey(own, prefixes.inheritedBy(info, key)), config);
      openKeyTable.putWithBatch(txn.batch(), OmKeys.openKey(volume, bucket, key, clientId), open);
      txn.count(info.getObjectId(), OmCounter.OPEN_KEYS, 1);
      return new OpenKeySession(clientId, open);
    });
  }

  /**
   * The openKeyTable row {@link #open} writes: key {@code key} of {@code owner} (already
   * resolved), with the ACL it inherits and its replication config (resolved), opened at
   * {@code now}. A bulk load builds its rows with it and {@link #committedRow} too, so both write
   * the same bytes.
   */
  public static KeyInfo openRow(String volume, String bucket, String key, String owner,
      long objectId, long clientId, long now, List<OmAcl> acls, ReplicationConfig replication) {
    return KeyInfo.newBuilder()
        .setVolumeName(volume)
        .setBucketName(bucket)
        .setKeyName(key)
        .setObjectId(objectId)
        .setUpdateId(objectId)
        .setClientId(clientId)
        .setOwner(owner)
        .setCreationTime(now)
        .setModificationTime(now)
        .addAllAcls(acls)
        .setReplicationConfig(replication)
        .build();
  }

  /** The keyTable row {@link #commit} makes of the open row {@code open} at {@code now}. */
  public static KeyInfo committedRow(KeyInfo open, long dataSize, Map<String, String> metadata,
      long now) {
    return open.toBuilder()
        .setClientId(0)
        .setDataSize(dataSize)
        .putAllMetadata(metadata)
        .setModificationTime(now)
        .build();
  }

  /**
   * Commits an open key: its openKeyTable row becomes the keyTable row, and the version it
   * overwrites, if any, moves to deletedTable under its object id. One batch.
   *
   * @throws OmException FAILED_PRECONDITION if the key is open only under other client ids,
   *     NOT_FOUND if the bucket is absent or the key has no open session (already committed, or
   *     discarded), INVALID_ARGUMENT for bad names or a negative size
   */
  public KeyInfo commit(String volume, String bucket, String key, long clientId, long dataSize) {
    return commit(volume, bucket, key, clientId, dataSize, Map.of());
  }

  /**
   * {@link #commit(String, String, String, long, long)} that also records user metadata on the
   * key, added to the open row's (a name given here replaces its value).
   *
   * @throws OmException as that method, and INVALID_ARGUMENT for metadata that
   *     {@link OmValidation#checkMetadata} refuses
   */
  public KeyInfo commit(String volume, String bucket, String key, long clientId, long dataSize,
      Map<String, String> metadata) {
    OmValidation.checkKeyArgs(volume, bucket, key);
    OmValidation.checkDataSize("Data size", dataSize, OmValidation.MAX_OBJECT_BYTES);
    OmValidation.checkMetadata(metadata);
    return ctx.write(txn -> {
      long bucketId = ctx.requireObjectStoreBucket(null, volume, bucket).getObjectId();
      String openKey = OmKeys.openKey(volume, bucket, key, clientId);
      KeyInfo open = openKeyTable.get(openKey);
      String objectKey = OmKeys.objectKey(volume, bucket, key);
      if (open == null) {
        if (OpenKeySession.existsFor(openKeyTable, objectKey)) {
          throw new OmException(Code.FAILED_PRECONDITION, "Key '" + key + "' in '" + volume + "/"
              + bucket + "' is open under another client id, not " + clientId
              + ": commit with the client id openKey returned");
        }
        throw OmException.notFound("No open key '" + key + "' in '" + volume + "/" + bucket
            + "' for client id " + clientId + " (already committed, or discarded)");
      }
      KeyInfo previous = keyTable.get(objectKey);
      KeyInfo committed = committedRow(open, dataSize, metadata, txn.now());
      openKeyTable.deleteWithBatch(txn.batch(), openKey);
      txn.count(bucketId, OmCounter.OPEN_KEYS, -1);
      keyTable.putWithBatch(txn.batch(), objectKey, committed);
      txn.count(bucketId, OmCounter.KEYS, 1);
      txn.count(bucketId, OmCounter.KEY_BYTES, dataSize);
      if (previous != null) {
        ctx.retire(txn, bucketId, OmCounter.KEYS, OmCounter.KEY_BYTES, previous);
      }
      return committed;
    });
  }

  /**
   * The key as {@link #lookup} returns it, but as stored: a {@link KeyInfo} in protobuf's
   * encoding, not parsed (its top level checked well-formed, {@link StoredRows}), for a caller
   * that only forwards it. One RocksDB get, as {@link #lookup}.
   *
   * @throws OmException as {@link #lookup}
   * @throws io.sediment.db.codec.CodecException if the stored row is not a well-formed message
   */
  public ByteString lookupEncoded(String volume, String bucket, String key) {
    OmValidation.checkKeyArgs(volume, bucket, key);
    ctx.requireObjectStoreBucket(null, volume, bucket);
    byte[] row = keyRows.get(KEY_TABLE.keyCodec().toPersistedFormat(
        OmKeys.objectKey(volume, bucket, key)));
    if (row == null) {
      throw missing(volume, bucket, key);
    }
    return StoredRows.wellFormed(row, "KeyInfo");
  }

  /** @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume, bucket or key), UNIMPLEMENTED (FSO) */
  public KeyInfo lookup(String volume, String bucket, String key) {
    OmValidation.checkKeyArgs(volume, bucket, key);
    ctx.requireObjectStoreBucket(null, volume, bucket);
    KeyInfo info = keyTable.get(OmKeys.objectKey(volume, bucket, key));
    if (info == null) {
      throw missing(volume, bucket, key);
    }
    return info;
  }

  /**
   * Deletes a key: its keyTable row moves to deletedTable under its object id. One batch.
   *
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume, bucket or key), UNIMPLEMENTED (FSO)
   */
  public void delete(String volume, String bucket, String key) {
    OmValidation.checkKeyArgs(volume, bucket, key);
    ctx.write(txn -> {
      long bucketId = ctx.requireObjectStoreBucket(null, volume, bucket).getObjectId();
      if (!deleteIn(txn, bucketId, OmKeys.objectKey(volume, bucket, key))) {
        throw missing(volume, bucket, key);
      }
      return null;
    });
  }

  /** What {@link #deleteAll} did with one key of its list. */
  public enum Deletion {
    /** The key's row moved to deletedTable. */
    DELETED,
    /** There was no such key (never created, deleted before, or named earlier in the list). */
    NOT_FOUND,
    /** The caller asked to leave the key alone (its position was in {@code skip}). */
    SKIPPED
  }

  /**
   * Deletes the listed keys of one OBJECT_STORE or LEGACY bucket in ONE batch: each existing key
   * moves to deletedTable exactly as {@link #delete} moves it (same rows, same counters), and a
   * key that does not exist is reported, not an error. A key named twice is deleted once, its
   * later mentions reported NOT_FOUND (already gone). The keys at the positions in {@code skip}
   * are validated like the others but left alone, reported SKIPPED (a caller's own filter, such
   * as the keys a server found its caller may not delete).
   *
   * <p>All or nothing: an error rejects the whole call before anything is written (any invalid
   * name, an empty list, more keys than the page cap, a missing volume or bucket, an FSO bucket,
   * a counter that would overflow, a full disk), so either every reported DELETED happened, in
   * one atomic write, or nothing did.
   *
   * @param keys 1 to the page cap ({@link io.sediment.om.core.OmStoreOptions#maxListSize()}) key
   *     names, in any order
   * @param skip positions in {@code keys} (0-based) to leave alone; positions out of range are
   *     ignored
   * @return one outcome per element of {@code keys}, in the same order
   * @throws OmException INVALID_ARGUMENT (names, an empty list, too many keys), NOT_FOUND (volume
   *     or bucket), UNIMPLEMENTED (FSO), RESOURCE_EXHAUSTED (counter overflow, disk full)
   */
  public List<Deletion> deleteAll(String volume, String bucket, List<String> keys,
      Set<Integer> skip) {
    OmValidation.checkBucketArgs(volume, bucket);
    if (keys.isEmpty()) {
      throw OmException.invalid("A batch delete names no key: list 1 to "
          + ctx.options().maxListSize() + " keys");
    }
    if (keys.size() > ctx.options().maxListSize()) {
      throw OmException.invalid("A batch delete of " + keys.size() + " keys exceeds the page "
          + "size cap " + ctx.options().maxListSize() + ": split it into pages");
    }
    for (int i = 0; i < keys.size(); i++) {
      try {
        OmValidation.checkKeyName(keys.get(i));
      } catch (OmException e) {
        throw OmException.invalid("Key " + (i + 1) + " of " + keys.size() + " in the batch: "
            + e.getMessage());
      }
    }
    List<String> objectKeys = new ArrayList<>(keys.size());
    for (String key : keys) {
      objectKeys.add(OmKeys.objectKey(volume, bucket, key));
    }
    return ctx.write(txn -> {
      long bucketId = ctx.requireObjectStoreBucket(null, volume, bucket).getObjectId();
      // The rows of the keys not skipped in one MultiGet, under the write lock as a single
      // key's read is.
      List<String> toRead = new ArrayList<>(keys.size());
      for (int i = 0; i < keys.size(); i++) {
        if (!skip.contains(i)) {
          toRead.add(objectKeys.get(i));
        }
      }
      Iterator<KeyInfo> rows = keyTable.getAll(toRead).iterator();
      Set<String> gone = new HashSet<>();
      List<Deletion> out = new ArrayList<>(keys.size());
      for (int i = 0; i < keys.size(); i++) {
        if (skip.contains(i)) {
          out.add(Deletion.SKIPPED);
          continue;
        }
        String objectKey = objectKeys.get(i);
        KeyInfo row = rows.next();
        // The batch is not read back: a key named again must not be retired twice.
        if (row != null && gone.add(objectKey)) {
          retireRow(txn, bucketId, objectKey, row);
          out.add(Deletion.DELETED);
        } else {
          out.add(Deletion.NOT_FOUND);
        }
      }
      return out;
    });
  }

  /**
   * The one delete of a committed key inside a write: its keyTable row goes, and the version moves
   * to deletedTable out of the live counters. Returns false, writing nothing, if there is no row.
   */
  private boolean deleteIn(WriteTxn txn, long bucketId, String objectKey) {
    KeyInfo existing = keyTable.get(objectKey);
    if (existing == null) {
      return false;
    }
    retireRow(txn, bucketId, objectKey, existing);
    return true;
  }

  /** Deletes {@code objectKey}'s keyTable row {@code existing} and retires it to deletedTable. */
  private void retireRow(WriteTxn txn, long bucketId, String objectKey, KeyInfo existing) {
    keyTable.deleteWithBatch(txn.batch(), objectKey);
    ctx.retire(txn, bucketId, OmCounter.KEYS, OmCounter.KEY_BYTES, existing);
  }

  /**
   * Renames a key of an OBJECT_STORE or LEGACY bucket: its keyTable row moves from
   * {@code fromKey} to {@code toKey} in one batch, keeping its object id, size and creation time,
   * with the new key name, a new update id and the modification time set to now. As Ozone's OBS
   * rename, an existing destination is refused (checked first, so renaming a key onto itself is
   * ALREADY_EXISTS) rather than overwritten. Counters are unchanged. Only committed keys move: a
   * key still open under {@code fromKey} commits under {@code fromKey}, and one open under
   * {@code toKey} that commits later overwrites the renamed key as any commit does.
   *
   * @return the row now at {@code toKey}
   * @throws OmException INVALID_ARGUMENT for bad names, NOT_FOUND if the volume, bucket or
   *     {@code fromKey} is absent, ALREADY_EXISTS if {@code toKey} exists, UNIMPLEMENTED for FSO
   *     buckets
   */
  public KeyInfo rename(String volume, String bucket, String fromKey, String toKey) {
    OmValidation.checkKeyArgs(volume, bucket, fromKey);
    OmValidation.checkKeyName(toKey);
    return ctx.write(txn -> {
      ctx.requireObjectStoreBucket(null, volume, bucket);
      String from = OmKeys.objectKey(volume, bucket, fromKey);
      String to = OmKeys.objectKey(volume, bucket, toKey);
      if (keyTable.isExist(to)) {
        throw new OmException(Code.ALREADY_EXISTS, "Cannot rename '" + fromKey + "' to '"
            + toKey + "' in '" + volume + "/" + bucket + "': the destination exists");
      }
      KeyInfo source = keyTable.get(from);
      if (source == null) {
        throw OmException.notFound("Cannot rename '" + fromKey + "' in '" + volume + "/"
            + bucket + "': the key does not exist");
      }
      KeyInfo renamed = source.toBuilder()
          .setKeyName(toKey)
          .setUpdateId(txn.allocateId())
          .setModificationTime(txn.now())
          .build();
      keyTable.deleteWithBatch(txn.batch(), from);
      keyTable.putWithBatch(txn.batch(), to, renamed);
      return renamed;
    });
  }

  private static OmException missing(String volume, String bucket, String key) {
    return OmException.notFound(
        "Key '" + key + "' does not exist in '" + volume + "/" + bucket + "'");
  }
}
