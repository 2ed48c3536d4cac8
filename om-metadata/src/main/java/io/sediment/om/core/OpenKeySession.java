package io.sediment.om.core;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.proto.om.KeyInfo;

/**
 * An open key: the client id that must be presented to commit it, and the open-key row.
 */
public record OpenKeySession(long clientId, KeyInfo openKey) {

  /**
   * Whether an open-key or open-file table holds a session of exactly {@code entryKey} (a row
   * {@code entryKey/<16 hex digits>}), not of a longer name that merely shares the prefix. One
   * bounded iterator; for error messages only (it may walk the sessions of longer names).
   */
  public static boolean existsFor(Table<String, ?> openTable, String entryKey) {
    String prefix = entryKey + OmKeys.SEPARATOR;
    try (TableIterator<String, ? extends KeyValue<String, ?>> it =
             openTable.iterator(prefix, IteratorType.KEY_ONLY)) {
      while (it.hasNext()) {
        String rest = it.next().getKey().substring(prefix.length());
        if (rest.length() == OmKeys.ID_WIDTH && rest.indexOf(OmKeys.SEPARATOR) < 0) {
          return true;
        }
      }
    }
    return false;
  }
}
