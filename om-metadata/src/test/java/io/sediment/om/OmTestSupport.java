package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sediment.db.KeyValue;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.proto.om.KeyInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import org.junit.jupiter.api.function.Executable;

/** Shared helpers: full-store scans, the reference listing model and paging drivers. */
final class OmTestSupport {

  private OmTestSupport() {
  }

  /** Key order of the store: UTF-8 bytes, unsigned. */
  static final Comparator<String> UTF8_ORDER = (a, b) -> Arrays.compareUnsigned(
      a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

  /** Every entry of every table, hex-encoded, in table and key order. */
  static Map<String, List<String>> fullScan(OmMetadataStore om) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (TableDefinition<?, ?> t : OmDBDefinition.DEFINITION.tables()) {
      List<String> rows = new ArrayList<>();
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
               om.dbStore().getTable(t.name()).iterator()) {
        while (it.hasNext()) {
          KeyValue<byte[], byte[]> kv = it.next();
          rows.add(HexFormat.of().formatHex(kv.getKey()) + "=" + HexFormat.of().formatHex(kv.getValue()));
        }
      }
      out.put(t.name(), rows);
    }
    return out;
  }

  /**
   * Asserts that {@code call} throws {@link OmException} with {@code code} and leaves every table
   * unchanged; returns the exception.
   */
  static OmException assertRejected(OmMetadataStore om, OmException.Code code, Executable call) {
    Map<String, List<String>> before = fullScan(om);
    OmException e = assertThrows(OmException.class, call);
    assertEquals(code, e.code(), () -> "wrong code: " + e.getMessage());
    assertEquals(before, fullScan(om), "the store changed although the call was rejected");
    return e;
  }

  /**
   * The reference S3 listing: the keys after {@code startAfter} that start with {@code prefix},
   * keys whose remainder contains {@code delimiter} rolled into their common prefix (once).
   * Items are {@code "K:" + key} or {@code "P:" + commonPrefix}.
   */
  static List<String> modelListing(NavigableSet<String> keys, String prefix, String delimiter,
      String startAfter) {
    String p = prefix == null ? "" : prefix;
    List<String> out = new ArrayList<>();
    String lastPrefix = null;
    for (String k : keys) {
      if (!k.startsWith(p)) {
        continue;
      }
      if (startAfter != null && !startAfter.isEmpty() && UTF8_ORDER.compare(k, startAfter) <= 0) {
        continue;
      }
      if (delimiter != null && !delimiter.isEmpty()) {
        int at = k.indexOf(delimiter, p.length());
        if (at >= 0) {
          String cp = k.substring(0, at + delimiter.length());
          if (!cp.equals(lastPrefix)) {
            out.add("P:" + cp);
            lastPrefix = cp;
          }
          continue;
        }
      }
      out.add("K:" + k);
    }
    return out;
  }

  /** One page as model items. */
  static List<String> items(ListObjectsV2Result page) {
    List<String> keys = new ArrayList<>();
    for (KeyInfo k : page.contents()) {
      keys.add(k.getKeyName());
    }
    List<String> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    // Merge contents and prefixes back into one ordered sequence.
    while (i < keys.size() || j < page.commonPrefixes().size()) {
      if (j >= page.commonPrefixes().size()
          || (i < keys.size() && UTF8_ORDER.compare(keys.get(i), page.commonPrefixes().get(j)) < 0)) {
        out.add("K:" + keys.get(i++));
      } else {
        out.add("P:" + page.commonPrefixes().get(j++));
      }
    }
    return out;
  }

  static List<String> names(ListPage<KeyInfo> page) {
    List<String> out = new ArrayList<>();
    for (KeyInfo k : page.items()) {
      out.add(k.getKeyName());
    }
    return out;
  }

  /** Creates and commits a key; returns the committed row. */
  static KeyInfo put(OmMetadataStore om, String v, String b, String key, long size) {
    OpenKeySession s = om.openKey(v, b, key, "alice");
    return om.commitKey(v, b, key, s.clientId(), size);
  }
}
