package io.sediment.om;

import static io.sediment.om.FsoTestSupport.putFile;

import io.sediment.om.fso.FsoPath;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds an FSO tree thousands of levels deep through the store API alone, keeping a
 * {@link TreeMap} model of it (full path to whether it is a directory, in
 * {@link FsoPath#LISTING_ORDER}). A created path may be at most 1,024 bytes, so the tree grows by
 * segments of {@value #SEGMENT} levels: each segment is created shallow (a chain {@code s<i>/a/a/...}
 * with a file every 50 levels and a side branch {@code b/c/g} every 100), then the tree built so
 * far is renamed to the bottom of it. The store's maximum path depth must allow the result
 * ({@code segments * 500 + 3} levels).
 */
final class DeepTree {

  static final int SEGMENT = 500;

  final TreeMap<String, Boolean> model = new TreeMap<>(FsoPath.LISTING_ORDER);
  private final OmMetadataStore om;
  private final String volume;
  private final String bucket;

  DeepTree(OmMetadataStore om, String volume, String bucket) {
    this.om = om;
    this.volume = volume;
    this.bucket = bucket;
  }

  /**
   * Builds {@code segments} segments; returns the top-level name of the tree
   * ({@code s<segments-1>}).
   */
  String build(int segments) {
    String root = null;
    for (int i = 0; i < segments; i++) {
      String top = "s" + i;
      String bottom = top + "/" + String.join("/", Collections.nCopies(SEGMENT - 1, "a"));
      om.fso().createDirectory(volume, bucket, bottom);
      addDirs(bottom);
      StringBuilder level = new StringBuilder(top);
      for (int j = 1; j <= SEGMENT; j++) {
        if (j > 1) {
          level.append("/a");
        }
        if (j % 50 == 0) {
          file(level + "/f" + j);
        }
        if (j % 100 == 0) {
          file(level + "/b/c/g");
        }
      }
      if (root != null) {
        rename(root, bottom + "/" + root);
      }
      root = top;
    }
    return root;
  }

  /** The deepest path of the model. */
  String deepest() {
    String deepest = "";
    for (String p : model.keySet()) {
      if (p.length() > deepest.length()) {
        deepest = p;
      }
    }
    return deepest;
  }

  /** The model's entries strictly below {@code dir} ({@code ""}: all), in listing order. */
  List<String> below(String dir) {
    List<String> out = new ArrayList<>();
    for (String p : model.keySet()) {
      if (dir.isEmpty() || p.startsWith(dir + "/")) {
        out.add(p + (model.get(p) ? "/" : ""));
      }
    }
    return out;
  }

  private void file(String path) {
    putFile(om, volume, bucket, path, path.length());
    addDirs(path.substring(0, path.lastIndexOf('/')));
    model.put(path, false);
  }

  private void addDirs(String dir) {
    for (int at = dir.indexOf('/'); at >= 0; at = dir.indexOf('/', at + 1)) {
      model.put(dir.substring(0, at), true);
    }
    model.put(dir, true);
  }

  private void rename(String from, String to) {
    om.fso().rename(volume, bucket, from, to);
    Map<String, Boolean> moved = new TreeMap<>(FsoPath.LISTING_ORDER);
    model.entrySet().removeIf(e -> {
      String p = e.getKey();
      if (p.equals(from) || p.startsWith(from + "/")) {
        moved.put(to + p.substring(from.length()), e.getValue());
        return true;
      }
      return false;
    });
    model.putAll(moved);
  }
}
