package io.sediment.om.fso;

import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Bounded walks of one FSO bucket's directory tree as one {@link ReadView} sees it. A directory's
 * children are the one contiguous range {@code /volumeId/bucketId/dirId/} of directoryTable and
 * of fileTable ({@link OmKeys}), each read with one bounded iterator. Every walk counts the rows it
 * visits and stops with {@link Code#RESOURCE_EXHAUSTED} past its budget, so a request costs at most
 * that many row reads. Not thread-safe; a walk is confined to its caller.
 */
public final class FsoTree {

  /** The most rows one walk reads unless a caller sets another budget. */
  public static final long DEFAULT_WALK_BUDGET = 200_000;

  private final ReadView view;
  private final long volumeId;
  private final long bucketId;
  private final long budget;
  private long visited;

  public FsoTree(ReadView view, long volumeId, long bucketId, long budget) {
    this.view = view;
    this.volumeId = volumeId;
    this.bucketId = bucketId;
    this.budget = budget;
  }

  long bucketId() {
    return bucketId;
  }

  /** Rows the walks of this tree have read so far (what counts against the budget). */
  public long visited() {
    return visited;
  }

  /** The prefix of {@code dirId}'s children in directoryTable, fileTable, openFileTable... */
  public String childPrefix(long dirId) {
    return OmKeys.childPrefix(volumeId, bucketId, dirId);
  }

  /** The directory at {@code components} below the bucket root (empty: the root), or null. */
  public DirectoryInfo directory(List<String> components) {
    Table<String, DirectoryInfo> dirs = view.getTable(OmDBDefinition.DIRECTORY_TABLE);
    long parent = bucketId;
    DirectoryInfo found = null;
    for (String c : components) {
      found = dirs.get(OmKeys.pathKey(volumeId, bucketId, parent, c));
      if (found == null) {
        return null;
      }
      parent = found.getObjectId();
    }
    return found;
  }

  /** The id of the directory at {@code components} (the bucket id for none), or null if absent. */
  public Long directoryId(List<String> components) {
    if (components.isEmpty()) {
      return bucketId;
    }
    DirectoryInfo d = directory(components);
    return d == null ? null : d.getObjectId();
  }

  /** The file {@code name} in directory {@code parentId}, or null. */
  public KeyInfo file(long parentId, String name) {
    return view.getTable(OmDBDefinition.FILE_TABLE).get(OmKeys.pathKey(volumeId, bucketId, parentId, name));
  }

  /**
   * Every directory of the subtree of {@code rootId} (itself included) whose top-level component
   * below the root starts with {@code firstLevelPrefix} (empty: all), by id, with its path
   * relative to the bucket root ({@code rootPath} for the root; no leading or trailing slash).
   */
  public TreeMap<Long, String> directories(long rootId, String rootPath, String firstLevelPrefix) {
    TreeMap<Long, String> out = new TreeMap<>(Long::compareUnsigned);
    out.put(rootId, rootPath);
    Deque<long[]> stack = new ArrayDeque<>();
    Deque<String> paths = new ArrayDeque<>();
    for (DirectoryInfo child : children(rootId, firstLevelPrefix)) {
      stack.push(new long[] {child.getObjectId()});
      paths.push(join(rootPath, child.getName()));
    }
    while (!stack.isEmpty()) {
      long id = stack.pop()[0];
      String path = paths.pop();
      out.put(id, path);
      for (DirectoryInfo child : children(id, "")) {
        stack.push(new long[] {child.getObjectId()});
        paths.push(join(path, child.getName()));
      }
    }
    return out;
  }

  /** Sizes of a subtree. */
  public record Totals(long directories, long files, long bytes) {
    Totals plus(Totals o) {
      return new Totals(directories + o.directories, files + o.files, bytes + o.bytes);
    }
  }

  /** One immediate child of a directory: a subdirectory with its subtree's totals, or a file. */
  public record Child(String name, boolean isFile, Totals totals) {
  }

  /** The immediate children of {@code dirId}, subdirectories with their recursive totals. */
  public List<Child> childrenWithTotals(long dirId) {
    List<Child> out = new ArrayList<>();
    for (DirectoryInfo d : children(dirId, "")) {
      out.add(new Child(d.getName(), false, new Totals(1, 0, 0).plus(totals(d.getObjectId()))));
    }
    for (KeyInfo f : files(dirId)) {
      out.add(new Child(f.getFileName(), true, new Totals(0, 1, f.getDataSize())));
    }
    return out;
  }

  /** The totals of everything below {@code dirId} (the directory itself not counted). */
  public Totals totals(long dirId) {
    return walk(dirId, f -> { });
  }

  /**
   * Visits every file below {@code dirId}, recursively (in no particular order), and returns the
   * totals of everything below it; one walk within the budget, as {@link #totals}.
   */
  public Totals walk(long dirId, Consumer<KeyInfo> eachFile) {
    long dirs = 0;
    long files = 0;
    long bytes = 0;
    Deque<Long> stack = new ArrayDeque<>();
    stack.push(dirId);
    while (!stack.isEmpty()) {
      long id = stack.pop();
      for (KeyInfo f : files(id)) {
        files++;
        bytes += f.getDataSize();
        eachFile.accept(f);
      }
      for (DirectoryInfo d : children(id, "")) {
        dirs++;
        stack.push(d.getObjectId());
      }
    }
    return new Totals(dirs, files, bytes);
  }

  private List<DirectoryInfo> children(long dirId, String namePrefix) {
    List<DirectoryInfo> out = new ArrayList<>();
    try (TableIterator<String, KeyValue<String, DirectoryInfo>> it =
             view.getTable(OmDBDefinition.DIRECTORY_TABLE).iterator(childPrefix(dirId) + namePrefix)) {
      while (it.hasNext()) {
        visit();
        out.add(it.next().getValue());
      }
    }
    return out;
  }

  private List<KeyInfo> files(long dirId) {
    List<KeyInfo> out = new ArrayList<>();
    try (TableIterator<String, KeyValue<String, KeyInfo>> it =
             view.getTable(OmDBDefinition.FILE_TABLE).iterator(childPrefix(dirId))) {
      while (it.hasNext()) {
        visit();
        KeyValue<String, KeyInfo> kv = it.next();
        KeyInfo f = kv.getValue();
        if (f.getFileName().isEmpty()) {
          f = f.toBuilder().setFileName(kv.getKey().substring(childPrefix(dirId).length())).build();
        }
        out.add(f);
      }
    }
    return out;
  }

  private void visit() {
    if (++visited > budget) {
      throw new OmException(Code.RESOURCE_EXHAUSTED, "The directory tree below this path has more"
          + " than " + budget + " entries, the most one request walks; ask about a deeper path,"
          + " or at bucket level, where the counters answer without a walk");
    }
  }

  public static String join(String parent, String name) {
    return parent.isEmpty() ? name : parent + OmKeys.SEPARATOR + name;
  }
}
