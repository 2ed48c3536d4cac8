package io.sediment.om.openfiles;

import io.sediment.db.ReadView;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.fso.FsoTree;
import io.sediment.proto.om.KeyInfo;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The current full path of an FSO open file. An openFileTable row keeps the path the file was
 * opened at, but the file belongs to its parent directory by object id, so renaming an ancestor
 * moves it (and commit then takes the new path). A path is checked by resolving the recorded
 * parent path by name, once per distinct parent path; only when that no longer leads to the
 * row's parent id is the bucket's directory tree walked, once, to find where the parent is now.
 *
 * <p>Rows of one {@link ReadView}, any number of buckets; the walks of all of them share one
 * budget. Not thread-safe (one per page).
 */
public final class OpenFilePaths {

  private static final long UNRESOLVED = 0;

  private final ReadView view;
  private final Map<Long, Bucket> buckets = new HashMap<>();
  private long walkBudget;

  /**
   * @param walkBudget the most directory rows the walks of one page may read together; a bucket
   *     whose walk would exceed what is left keeps the recorded paths of its moved files
   */
  public OpenFilePaths(ReadView view, long walkBudget) {
    this.view = view;
    this.walkBudget = walkBudget;
  }

  /**
   * The current path (relative to the bucket, no leading {@code /}) of the open file stored under
   * {@code dbKey} ({@code /volumeId/bucketId/parentId/name/clientId}) with value {@code open}.
   * The recorded path when the parent directory is gone (deleted, its rows awaiting the purge) or
   * the walk budget is spent.
   */
  public String current(String dbKey, KeyInfo open) {
    long volumeId = OmKeys.fsoVolumeIdOf(dbKey);
    long bucketId = OmKeys.fsoBucketIdOf(dbKey);
    long parentId = OmKeys.fsoParentIdOf(dbKey);
    String leaf = OmKeys.fsoNameOfSuffixed(dbKey);
    String recorded = open.getKeyName().isEmpty() ? leaf : open.getKeyName();
    Bucket b = buckets.computeIfAbsent(bucketId, id -> new Bucket(volumeId, id));
    int slash = recorded.lastIndexOf('/');
    String recordedParent = slash < 0 ? "" : recorded.substring(0, slash);
    if (b.idOf(recordedParent) == parentId) {
      return recorded;
    }
    String parent = b.pathOf(parentId);
    return parent == null ? recorded : FsoTree.join(parent, leaf);
  }

  /** What one bucket's rows have needed so far. */
  private final class Bucket {
    private final long volumeId;
    private final long bucketId;
    /** Point lookups by name only: no walk, so no budget. */
    private final FsoTree lookups;
    private final Map<String, Long> idByPath = new HashMap<>();
    private Map<Long, String> pathById;

    Bucket(long volumeId, long bucketId) {
      this.volumeId = volumeId;
      this.bucketId = bucketId;
      this.lookups = new FsoTree(view, volumeId, bucketId, 0);
    }

    long idOf(String path) {
      return idByPath.computeIfAbsent(path, p -> {
        List<String> components = p.isEmpty() ? List.of() : Arrays.asList(p.split("/"));
        Long id = lookups.directoryId(components);
        return id == null ? UNRESOLVED : id;
      });
    }

    String pathOf(long dirId) {
      if (pathById == null) {
        FsoTree tree = new FsoTree(view, volumeId, bucketId, walkBudget);
        try {
          pathById = tree.directories(bucketId, "", "");
        } catch (OmException e) {
          if (e.code() != OmException.Code.RESOURCE_EXHAUSTED) {
            throw e;
          }
          pathById = Map.of();
        }
        walkBudget = Math.max(0, walkBudget - tree.visited());
      }
      return pathById.get(dirId);
    }
  }
}
