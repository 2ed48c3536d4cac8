package io.sediment.om.insight;

import static io.sediment.om.core.OmDBDefinition.BUCKET_TABLE;

import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.fso.FsoTree;
import io.sediment.proto.om.BucketInfo;
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
