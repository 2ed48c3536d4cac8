package io.sediment.om;

import io.sediment.om.service.PurgeSteps;
import java.time.Duration;

/**
 * Purge steps that do what {@code delegate}'s do: a test overrides the step it watches and leaves
 * the others as they are.
 */
class ForwardingPurgeSteps implements PurgeSteps {

  final PurgeSteps delegate;

  ForwardingPurgeSteps(PurgeSteps delegate) {
    this.delegate = delegate;
  }

  @Override
  public long purgeDeletedKeys(int limit) {
    return delegate.purgeDeletedKeys(limit);
  }

  @Override
  public long expireOpenKeys(Duration threshold, int limit) {
    return delegate.expireOpenKeys(threshold, limit);
  }

  @Override
  public long expireOpenFiles(Duration threshold, int limit) {
    return delegate.expireOpenFiles(threshold, limit);
  }

  @Override
  public long abortExpiredUploads(Duration threshold, int limit) {
    return delegate.abortExpiredUploads(threshold, limit);
  }

  @Override
  public long purgeDeletedDirectories(int limit) {
    return delegate.purgeDeletedDirectories(limit);
  }
}
