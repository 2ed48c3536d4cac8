package io.sediment.om;

import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.proto.om.KeyInfo;
import java.util.EnumMap;
import java.util.Map;

/** Computes every {@link OmCounter} from a full scan of one consistent view of the store. */
final class CounterScan {

  private CounterScan() {
  }

  static Map<OmCounter, Long> count(DBStore store) {
    Map<OmCounter, Long> out = new EnumMap<>(OmCounter.class);
    try (ReadView view = store.openReadView()) {
      out.put(OmCounter.VOLUMES, rows(view, OmDBDefinition.VOLUME_TABLE));
      out.put(OmCounter.BUCKETS, rows(view, OmDBDefinition.BUCKET_TABLE));
      sized(view, OmDBDefinition.KEY_TABLE, OmCounter.KEYS, OmCounter.KEY_BYTES, out);
      sized(view, OmDBDefinition.FILE_TABLE, OmCounter.FILES, OmCounter.FILE_BYTES, out);
      out.put(OmCounter.DIRECTORIES, rows(view, OmDBDefinition.DIRECTORY_TABLE));
      out.put(OmCounter.OPEN_KEYS, rows(view, OmDBDefinition.OPEN_KEY_TABLE));
      out.put(OmCounter.OPEN_FILES, rows(view, OmDBDefinition.OPEN_FILE_TABLE));
      sized(view, OmDBDefinition.DELETED_TABLE, OmCounter.DELETED_KEYS,
          OmCounter.DELETED_KEY_BYTES, out);
      out.put(OmCounter.DELETED_DIRECTORIES, rows(view, OmDBDefinition.DELETED_DIRECTORY_TABLE));
      out.put(OmCounter.MULTIPART_UPLOADS, rows(view, OmDBDefinition.MULTIPART_INFO_TABLE));
      out.put(OmCounter.SNAPSHOTS, rows(view, OmDBDefinition.SNAPSHOT_INFO_TABLE));
    }
    return out;
  }

  private static long rows(ReadView view, TableDefinition<?, ?> def) {
    long n = 0;
    Table<byte[], byte[]> table = view.getTable(def.name());
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = table.iterator(null, IteratorType.KEY_ONLY)) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  private static void sized(ReadView view, TableDefinition<String, KeyInfo> def, OmCounter rows,
      OmCounter bytes, Map<OmCounter, Long> out) {
    long n = 0;
    long size = 0;
    Table<String, KeyInfo> table = view.getTable(def);
    try (TableIterator<String, KeyValue<String, KeyInfo>> it = table.iterator()) {
      while (it.hasNext()) {
        n++;
        size += it.next().getValue().getDataSize();
      }
    }
    out.put(rows, n);
    out.put(bytes, size);
  }
}
