/**
 * JMH benchmarks of hdds-db and om-metadata. Unlike every other caller, the benchmarks may use
 * hdds-db's implementation packages ({@code io.sediment.db.managed}, {@code rdb},
 * {@code tombstone}): they measure those internals (the native database, SST layout, pinning)
 * against the raw rocksdbjni floor, so the hdds-db API's leaf rule does not apply here.
 */
package io.sediment.bench;
