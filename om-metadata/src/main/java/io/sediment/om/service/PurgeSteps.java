package io.sediment.om.service;

import io.sediment.om.OmMetadataStore;
import java.time.Duration;
import java.util.Objects;

/**
 * The steps the background services run, each one write transaction that resumes after a
 * persisted cursor and returns how many rows it purged, expired or aborted. Where a step runs is
 * the implementation's choice: on this store ({@link #on}), or, in a replicated group, as a log
 * entry the leader appends and every replica applies (a follower's step does nothing and
 * returns 0).
 *
 * <p>Implementations are thread-safe.
 */
public interface PurgeSteps {

  /** See {@link io.sediment.om.purge.OmPurges#purgeDeletedKeys}. */
  long purgeDeletedKeys(int limit);

  /** See {@link io.sediment.om.purge.OmPurges#expireOpenKeys}. */
  long expireOpenKeys(Duration threshold, int limit);

  /** See {@link io.sediment.om.purge.OmPurges#expireOpenFiles}. */
  long expireOpenFiles(Duration threshold, int limit);

  /** See {@link io.sediment.om.purge.OmPurges#abortExpiredUploads}. */
  long abortExpiredUploads(Duration threshold, int limit);

  /** See {@link io.sediment.om.fso.FsoNamespace#purgeDeletedDirectories}. */
  long purgeDeletedDirectories(int limit);

  /** The steps run directly on {@code store}, on the calling thread. */
  static PurgeSteps on(OmMetadataStore store) {
    Objects.requireNonNull(store, "store");
    return new PurgeSteps() {
      @Override
      public long purgeDeletedKeys(int limit) {
        return store.purges().purgeDeletedKeys(limit).purged();
      }

      @Override
      public long expireOpenKeys(Duration threshold, int limit) {
        return store.purges().expireOpenKeys(threshold, limit).purged();
      }

      @Override
      public long expireOpenFiles(Duration threshold, int limit) {
        return store.purges().expireOpenFiles(threshold, limit).purged();
      }

      @Override
      public long abortExpiredUploads(Duration threshold, int limit) {
        return store.purges().abortExpiredUploads(threshold, limit).purged();
      }

      @Override
      public long purgeDeletedDirectories(int limit) {
        return store.fso().purgeDeletedDirectories(limit);
      }
    };
  }
}
