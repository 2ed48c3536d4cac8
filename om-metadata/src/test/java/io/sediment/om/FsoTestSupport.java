package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.fso.FsoPath;
import io.sediment.om.listing.ListPage;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayList;
import java.util.List;

/** Helpers for the FSO tests: files, paged listings, table contents, counters. */
final class FsoTestSupport {

  private FsoTestSupport() {
  }

  /** Opens, then commits a file of {@code size} bytes. */
  static KeyInfo putFile(OmMetadataStore om, String v, String b, String path, long size) {
    OpenKeySession s = om.fso().createFile(v, b, path, null);
    return om.fso().commitFile(v, b, path, s.clientId(), size);
  }

  static List<String> paths(List<FileStatus> statuses) {
    List<String> out = new ArrayList<>();
    for (FileStatus s : statuses) {
      out.add(s.path());
    }
    return out;
  }

  static List<String> paths(ListPage<FileStatus> page) {
    return paths(page.items());
  }

  /**
   * Every entry of a listing, paged by {@code pageSize} with continuation tokens; asserts that
   * paths strictly increase in listing order, every page but the last is full and truncated with
   * a token, and the last is not truncated.
   */
  static List<FileStatus> listAll(OmMetadataStore om, String v, String b, String path,
      boolean recursive, String startKey, int pageSize) {
    List<FileStatus> out = new ArrayList<>();
    String token = null;
    for (int pages = 0; ; pages++) {
      ListPage<FileStatus> page = om.fso().listStatus(v, b, path, recursive, startKey, pageSize, token);
      for (FileStatus s : page.items()) {
        if (!out.isEmpty()) {
          String last = out.get(out.size() - 1).path();
          assertTrue(FsoPath.LISTING_ORDER.compare(last, s.path()) < 0,
              "paths must strictly increase across pages: '" + last + "' then '" + s.path() + "'");
        }
        out.add(s);
      }
      if (!page.truncated()) {
        assertNull(page.nextToken(), "a last page has no token");
        assertTrue(page.items().size() <= pageSize);
        return out;
      }
      assertEquals(pageSize, page.items().size(), "a truncated page is full");
      assertNotNull(page.nextToken(), "a truncated page has a token");
      token = page.nextToken();
      assertTrue(pages < 100_000, "runaway paging");
    }
  }

  /** The keys of a table, in key order. */
  static List<String> keys(OmMetadataStore om, TableDefinition<String, ?> def) {
    return keys(om, def, null);
  }

  /** The keys of a table under {@code prefix}, in key order. */
  static List<String> keys(OmMetadataStore om, TableDefinition<String, ?> def, String prefix) {
    List<String> out = new ArrayList<>();
    Table<String, ?> table = om.dbStore().getTable(def);
    try (TableIterator<String, ? extends KeyValue<String, ?>> it =
             table.iterator(prefix, IteratorType.KEY_ONLY)) {
      while (it.hasNext()) {
        out.add(it.next().getKey());
      }
    }
    return out;
  }

  /** The maintained counters equal a full recount. */
  static void assertCountersExact(OmMetadataStore om) {
    assertEquals(om.countFromScan(), om.counters(), "maintained counters drifted from a scan");
  }

  /** Runs purge steps of {@code maxEntries} until the queue is empty; returns the steps run. */
  static int purgeAll(OmMetadataStore om, int maxEntries) {
    int steps = 0;
    while (om.fso().purgeDeletedDirectories(maxEntries) > 0) {
      steps++;
      assertTrue(steps < 100_000, "the purge does not converge");
    }
    assertFalse(om.fso().purgeDeletedDirectories(maxEntries) > 0);
    return steps;
  }
}
