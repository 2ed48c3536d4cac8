/**
 * Tombstone and compaction figures of an open store, as immutable values
 * ({@link io.sediment.db.DBStore#tombstoneStats()}): per table, the deletions in memtables and
 * SST files, the key ranges where scans keep skipping tombstones, and what the targeted
 * compactions did. Part of the hdds-db API.
 */
package io.sediment.db.stats;
