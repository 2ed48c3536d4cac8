package io.sediment.om.openfiles;

import java.util.List;

/**
 * One page of {@link OpenFiles#list}.
 *
 * @param entries in table key order: OBJECT_STORE/LEGACY by key name then client id, FSO by parent
 *     directory id, name, then client id
 * @param truncated exact: whether at least one more open entry followed this page when it was read
 * @param nextToken when {@code truncated}, the continuation token of the next page, else
 *     {@code null}
 * @param totalOpenKeyCount the bucket's open keys (OPEN_KEYS) or open files (OPEN_FILES) from the
 *     maintained counters, read when the page was; never a scan
 */
public record OpenFilesPage(List<OpenFileEntry> entries, boolean truncated, String nextToken,
    long totalOpenKeyCount) {

  public OpenFilesPage {
    entries = List.copyOf(entries);
  }
}
