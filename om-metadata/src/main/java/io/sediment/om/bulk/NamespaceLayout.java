package io.sediment.om.bulk;

import io.sediment.om.bucket.Buckets;
import io.sediment.om.bucket.Volumes;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.VolumeInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Where every object of a {@link NamespacePlan} gets its id, and the volume and bucket rows. The
 * ids are those the equivalent writes through the write path would allocate, one after the other
 * from {@code firstId}, in this order:
 *
 * <ol>
 *   <li>each volume in the plan's order (one id), followed by its OBS buckets, then its FSO
 *       buckets, in the plan's order (one id each);
 *   <li>then the contents of each bucket, in the order the buckets were created: an OBS bucket's
 *       keys 0 to N-1 (open and commit: two ids each, the object id first), then its uploads 0 to
 *       K-1 (initiate: one id, then each of its P parts committed in number order: one id each);
 *       an FSO bucket's tree as {@link FsoTreeLayout} orders it.
 * </ol>
 *
 * <p>So a store built by a bulk load and one built by those writes under the same clock hold the
 * same rows, byte for byte. Immutable.
 */
final class NamespaceLayout {

  /** A bucket of the plan: its row and the first id of its contents. */
  record Bucket(BucketInfo row, long contentBase) {

    /** {@code /volume/bucket/}: where its rows sort in the name-keyed tables. */
    String namePrefix() {
      return OmKeys.bucketPrefix(row.getVolumeName(), row.getBucketName());
    }

    /** {@code /volumeId/bucketId/}: where its rows sort in the id-keyed tables. */
    String idPrefix() {
      return OmKeys.fsoBucketPrefix(row.getVolumeId(), row.getObjectId());
    }
  }

  private final NamespacePlan plan;
  private final FsoTreeLayout tree;
  private final long firstId;
  private final long endId;
  private final List<VolumeInfo> volumes = new ArrayList<>();
  private final List<Bucket> obs = new ArrayList<>();
  private final List<Bucket> fso = new ArrayList<>();

  /**
   * @param now the creation time of every row
   * @param firstId the first of {@link #ids} ids reserved for the load
   */
  NamespaceLayout(NamespacePlan plan, FsoTreeLayout tree, long firstId, long now) {
    this.plan = plan;
    this.tree = tree;
    this.firstId = firstId;
    long id = firstId;
    List<BucketInfo> rows = new ArrayList<>();
    for (String v : plan.volumes()) {
      VolumeInfo volume = Volumes.newRow(v, plan.owner(), id++, now);
      volumes.add(volume);
      for (String b : plan.obsBuckets()) {
        rows.add(Buckets.newRow(volume, b, BucketLayout.OBJECT_STORE, null, 0, id++, now));
      }
      for (String b : plan.fsoBuckets()) {
        rows.add(Buckets.newRow(volume, b, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0, id++,
            now));
      }
    }
    for (BucketInfo row : rows) {
      boolean isObs = row.getLayout() == BucketLayout.OBJECT_STORE;
      Bucket bucket = new Bucket(row, id);
      (isObs ? obs : fso).add(bucket);
      id += isObs ? obsContentIds() : tree.ids();
    }
    this.endId = id;
  }

  /**
   * The ids a plan needs.
   *
   * @throws OmException INVALID_ARGUMENT if they do not fit in a long
   */
  static long ids(NamespacePlan plan, FsoTreeLayout tree) {
    try {
      long volumes = plan.volumes().size();
      long perVolume = Math.addExact(1 + plan.bucketsPerVolume(),
          Math.addExact(Math.multiplyExact(plan.obsBuckets().size(), obsContentIds(plan)),
              Math.multiplyExact(plan.fsoBuckets().size(), tree.ids())));
      return Math.multiplyExact(volumes, perVolume);
    } catch (ArithmeticException e) {
      throw OmException.invalid("The plan needs more object ids than a store has");
    }
  }

  private static long obsContentIds(NamespacePlan plan) {
    return Math.addExact(Math.multiplyExact(2, plan.keysPerBucket()),
        Math.multiplyExact(plan.uploadsPerBucket(), 1L + plan.partsPerUpload()));
  }

  private long obsContentIds() {
    return obsContentIds(plan);
  }

  long firstId() {
    return firstId;
  }

  /** One past the last id of the load. */
  long endId() {
    return endId;
  }

  /** The volume rows, in the plan's order. */
  List<VolumeInfo> volumes() {
    return volumes;
  }

  /** The OBS buckets in creation order (the order of their ids). */
  List<Bucket> obsBuckets() {
    return obs;
  }

  /** The FSO buckets in creation order (the order of their ids). */
  List<Bucket> fsoBuckets() {
    return fso;
  }

  /** The OBS buckets in the order of their name prefixes: the key order of keyTable. */
  List<Bucket> obsBucketsByName() {
    List<Bucket> sorted = new ArrayList<>(obs);
    sorted.sort(Comparator.comparing(Bucket::namePrefix, NamespaceLayout::compareUtf8));
    return sorted;
  }

  /** The FSO buckets in the order of their id prefixes: the key order of the FSO tables. */
  List<Bucket> fsoBucketsByIds() {
    List<Bucket> sorted = new ArrayList<>(fso);
    sorted.sort(Comparator.comparing(Bucket::idPrefix));
    return sorted;
  }

  /** Object id of key {@code i} (its client id is the next one). */
  static long keyId(Bucket b, long i) {
    return b.contentBase() + 2 * i;
  }

  /** Id of upload {@code u} (its parts follow, part {@code p} at {@code + p}). */
  long uploadId(Bucket b, long u) {
    return b.contentBase() + 2 * plan.keysPerBucket() + u * (1L + plan.partsPerUpload());
  }

  /** Object id of the directory at {@code preorder} (1 to D). */
  static long directoryId(Bucket b, long preorder) {
    return b.contentBase() + preorder - 1;
  }

  /** Object id of file {@code i} in the tree's file order (its client id is the next one). */
  long fileId(Bucket b, long i) {
    return b.contentBase() + tree.directories() + 2 * i;
  }

  /** Byte order of the UTF-8 encodings, which is the order of the tables' keys. */
  static int compareUtf8(String a, String b) {
    return java.util.Arrays.compareUnsigned(OmKeys.utf8(a), OmKeys.utf8(b));
  }
}
