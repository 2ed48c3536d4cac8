package io.sediment.om.bucket;

import static io.sediment.om.core.OmDBDefinition.BUCKET_TABLE;

import io.sediment.om.acl.DefaultAcls;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.proto.om.VolumeInfo;

/**
 * Volume writes and reads: rows of volumeTable under {@code /volume}. Every write is one
 * {@link OmContext#write} transaction that checks first and changes nothing when it throws.
 * Thread-safe.
 */
public final class Volumes {

  private final OmContext ctx;

  public Volumes(OmContext ctx) {
    this.ctx = ctx;
  }

  /**
   * Creates a volume owned (and administered) by {@code owner}.
   *
   * @throws OmException INVALID_ARGUMENT for a bad name or owner, ALREADY_EXISTS if it exists
   */
  public VolumeInfo create(String volume, String owner) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkOwner(owner);
    return ctx.write(txn -> {
      if (ctx.volumeIfExists(volume) != null) {
        throw new OmException(Code.ALREADY_EXISTS, "Volume '" + volume + "' already exists");
      }
      VolumeInfo info = newRow(volume, owner, txn.allocateId(), txn.now());
      ctx.parsedRows().putVolume(txn, info);
      txn.count(OmCounter.VOLUMES, 1);
      return info;
    });
  }

  /**
   * The row {@link #create} writes for a new volume with object id {@code id} at time
   * {@code now}; a bulk load builds its rows with it too, so both write the same bytes.
   */
  public static VolumeInfo newRow(String volume, String owner, long id, long now) {
    return VolumeInfo.newBuilder()
        .setName(volume)
        .setOwner(OmContext.nz(owner))
        .setAdmin(OmContext.nz(owner))
        .setObjectId(id)
        .setUpdateId(id)
        .setCreationTime(now)
        .setModificationTime(now)
        .addAllAcls(DefaultAcls.forVolume(owner))
        .build();
  }

  /**
   * Sets a volume's owner (when {@code owner} is not {@code null}) and quotas (when not
   * {@code null}; 0 = unlimited).
   *
   * @throws OmException INVALID_ARGUMENT for a bad name, owner or negative quota, NOT_FOUND if
   *     absent
   */
  public VolumeInfo setProperties(String volume, PropertyPatch patch) {
    OmValidation.checkResourceName("Volume", volume);
    return ctx.write(txn -> {
      VolumeInfo.Builder b = ctx.requireVolume(null, volume).toBuilder()
          .setModificationTime(txn.now());
      patch.applyTo(b::setOwner, b::setQuotaInBytes, b::setQuotaInNamespace);
      VolumeInfo info = b.build();
      ctx.parsedRows().putVolume(txn, info);
      return info;
    });
  }

  /** @throws OmException INVALID_ARGUMENT for a bad name, NOT_FOUND if absent */
  public VolumeInfo get(String volume) {
    OmValidation.checkResourceName("Volume", volume);
    return ctx.requireVolume(null, volume);
  }

  /**
   * Deletes an empty volume: no live bucket (tombstones of deleted buckets do not count).
   *
   * @throws OmException INVALID_ARGUMENT for a bad name, NOT_FOUND if absent,
   *     FAILED_PRECONDITION if it has buckets
   */
  public void delete(String volume) {
    OmValidation.checkResourceName("Volume", volume);
    ctx.write(txn -> {
      ctx.requireVolume(null, volume);
      if (ctx.table(BUCKET_TABLE).hasLiveKey(OmKeys.volumePrefix(volume))) {
        throw new OmException(Code.FAILED_PRECONDITION,
            "Volume '" + volume + "' is not empty: delete its buckets first");
      }
      ctx.parsedRows().deleteVolume(txn, volume);
      txn.count(OmCounter.VOLUMES, -1);
      return null;
    });
  }
}
