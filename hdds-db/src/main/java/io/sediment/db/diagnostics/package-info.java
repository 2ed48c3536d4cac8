/**
 * Accounting of resources that must be released explicitly (native RocksDB objects, pooled
 * buffers), for tests and diagnostics: a leaf of hdds-db that every other package may use.
 */
package io.sediment.db.diagnostics;
