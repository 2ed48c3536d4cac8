package io.sediment.om.insight;

import static io.sediment.om.core.OmDBDefinition.BUCKET_TABLE;
import static io.sediment.om.core.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.core.OmDBDefinition.VOLUME_TABLE;

import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.fso.FsoTree;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.VolumeInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Path planning for {@link OmInsight}: absolute paths split into components, listing start
 * prefixes checked, and the volume, bucket and FSO tree a path names, as one {@link ReadView}
 * sees them. Stateless.
 */
final class InsightPaths {

  static final String ROOT = "/";

  private InsightPaths() {
  }

  /**
   * The components of an absolute path (a summary's), empty ones dropped: {@code //vol//b} is
   * {@code /vol/b}, one place named two ways.
   *
   * @throws OmException INVALID_ARGUMENT if missing, empty or not starting with {@code /}
   */
  static List<String> pathComponents(String what, String path) {
    if (path == null || path.isEmpty()) {
      throw OmException.invalid(what + " is required");
    }
    if (path.charAt(0) != OmKeys.SEPARATOR) {
      throw OmException.invalid(what + " must start with '/': '" + path + "'");
    }
    OmValidation.checkOptionalStoredKey(what, path);
    List<String> out = new ArrayList<>();
    for (String p : path.split("/")) {
      if (!p.isEmpty()) {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * The components of a listing's {@code startPrefix}, as {@link #pathComponents}, but its
   * volume and bucket must be written exactly ({@code /volume/bucket}, one {@code /} before
   * each): a prefix is not normalized, so {@code //vol/b/x} must not quietly list all of
   * {@code /vol/b}.
   *
   * @throws OmException INVALID_ARGUMENT as {@link #pathComponents}, or for an empty component
   *     before the bucket's end ({@code //volume}, {@code /volume//bucket})
   */
  static List<String> startPrefixComponents(String startPrefix) {
    List<String> out = pathComponents("startPrefix", startPrefix);
    String head = ROOT + String.join(ROOT, out.subList(0, Math.min(2, out.size())));
    if (!out.isEmpty() && !(startPrefix.equals(head) || startPrefix.startsWith(head + ROOT))) {
      throw OmException.invalid("startPrefix must name its volume and bucket as /volume/bucket"
          + " (one '/' before each), not '" + startPrefix + "'");
    }
    return out;
  }

  static String normalized(List<String> parts) {
    return ROOT + String.join(ROOT, parts);
  }

  /**
   * What a namespace path names, as one view sees it.
   *
   * @param path the normalized path
   * @param type what it names; {@link OmInsight.PathType#UNKNOWN} if nothing
   * @param volume the volume's row (volume level and below), else null
   * @param bucket the bucket's row (bucket level and below), else null
   * @param tree the directory tree of an FSO bucket (bucket level and below), else null
   * @param directoryId the directory's object id, or the bucket's at the level of an FSO bucket;
   *     else 0
   * @param directory the directory's row, else null
   * @param key the key's or file's row, else null
   */
  record Target(String path, OmInsight.PathType type, VolumeInfo volume, BucketInfo bucket,
      FsoTree tree, long directoryId, DirectoryInfo directory, KeyInfo key) {

    boolean fso() {
      return tree != null;
    }
  }

  /**
   * What {@code path} names ({@code /}, {@code /volume}, {@code /volume/bucket} or a path inside a
   * bucket; repeated and trailing slashes are ignored), found with point reads only: nothing is
   * walked, so the tree's budget is untouched. Inside an OBS or LEGACY bucket a path names a key
   * or nothing (a key-name prefix is no directory).
   *
   * @throws OmException INVALID_ARGUMENT if the path is missing or relative
   */
  static Target resolve(ReadView view, String path, long walkBudget) {
    List<String> parts = pathComponents("path", path);
    String norm = normalized(parts);
    Target unknown = new Target(norm, OmInsight.PathType.UNKNOWN, null, null, null, 0, null, null);
    if (parts.isEmpty()) {
      return new Target(norm, OmInsight.PathType.ROOT, null, null, null, 0, null, null);
    }
    VolumeInfo volume = view.getTable(VOLUME_TABLE).get(OmKeys.volumeKey(parts.get(0)));
    if (volume == null) {
      return unknown;
    }
    if (parts.size() == 1) {
      return new Target(norm, OmInsight.PathType.VOLUME, volume, null, null, 0, null, null);
    }
    BucketInfo bucket = bucket(view, parts.get(0), parts.get(1));
    if (bucket == null) {
      return unknown;
    }
    boolean fso = bucket.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED;
    FsoTree tree = fso ? tree(view, bucket, walkBudget) : null;
    if (parts.size() == 2) {
      return new Target(norm, OmInsight.PathType.BUCKET, volume, bucket, tree,
          fso ? bucket.getObjectId() : 0, null, null);
    }
    List<String> inside = parts.subList(2, parts.size());
    if (!fso) {
      KeyInfo key = view.getTable(KEY_TABLE).get(
          OmKeys.objectKey(parts.get(0), parts.get(1), String.join(ROOT, inside)));
      return key == null ? unknown
          : new Target(norm, OmInsight.PathType.KEY, volume, bucket, null, 0, null, key);
    }
    DirectoryInfo dir = tree.directory(inside);
    if (dir != null) {
      return new Target(norm, OmInsight.PathType.DIRECTORY, volume, bucket, tree,
          dir.getObjectId(), dir, null);
    }
    Long parent = tree.directoryId(inside.subList(0, inside.size() - 1));
    KeyInfo file = parent == null ? null : tree.file(parent, inside.get(inside.size() - 1));
    return file == null ? unknown
        : new Target(norm, OmInsight.PathType.KEY, volume, bucket, tree, 0, null, file);
  }

  /**
   * The bucket a listing's {@code startPrefix} names ({@link #startPrefixComponents}' first two
   * components).
   *
   * @throws OmException NOT_FOUND naming the volume if it is missing, else the bucket
   */
  static BucketInfo requireBucket(ReadView view, List<String> parts) {
    BucketInfo b = bucket(view, parts.get(0), parts.get(1));
    if (b != null) {
      return b;
    }
    if (view.getTable(VOLUME_TABLE).get(OmKeys.volumeKey(parts.get(0))) == null) {
      throw OmException.volumeNotFound(parts.get(0));
    }
    throw OmException.bucketNotFound(parts.get(0), parts.get(1));
  }

  /** The directory tree of an FSO bucket as {@code view} sees it, walks bounded by {@code walkBudget}. */
  static FsoTree tree(ReadView view, BucketInfo bucket, long walkBudget) {
    return new FsoTree(view, bucket.getVolumeId(), bucket.getObjectId(), walkBudget);
  }

  static BucketInfo bucket(ReadView view, String volume, String bucket) {
    return view.getTable(BUCKET_TABLE).get(OmKeys.bucketKey(volume, bucket));
  }

  static List<BucketInfo> buckets(ReadView view, String volume) {
    List<BucketInfo> out = new ArrayList<>();
    try (TableIterator<String, KeyValue<String, BucketInfo>> it =
             view.getTable(BUCKET_TABLE).iterator(OmKeys.volumePrefix(volume))) {
      while (it.hasNext()) {
        out.add(it.next().getValue());
      }
    }
    return out;
  }
}
