package io.sediment.db;

/**
 * The verdict on one file of a store ({@link DBStore#verifyFiles()}).
 *
 * @param kind what the file is: {@code sst} (a live table file), {@code wal} (a write-ahead log)
 *     or {@code unreferenced} (an SST in the directory that the MANIFEST does not list)
 * @param file the file's name in the store's directory
 * @param table the table (column family) a live SST belongs to; empty for other kinds
 * @param bytes the file's size on disk; -1 if it is missing
 * @param ok whether the file is whole: present, of the size the MANIFEST records, every block's
 *     checksum matching (SSTs), every record before a torn tail readable (logs). An unreferenced
 *     file is reported but is not a failure: RocksDB deletes such leftovers itself
 * @param detail what was found, for an operator
 */
public record FileCheck(String kind, String file, String table, long bytes, boolean ok,
    String detail) {
}
