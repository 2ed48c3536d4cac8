package io.sediment.db.managed;

import java.util.concurrent.atomic.AtomicBoolean;
import org.rocksdb.AbstractNativeReference;

/**
 * Owns one native RocksDB object: registers it with the {@link NativeTracker} and closes it once.
 * {@link #get()} after {@link #close()} throws {@link IllegalStateException} instead of handing a
 * freed handle to native code. Close is idempotent and thread-safe.
 */
final class Managed<T extends AbstractNativeReference> implements AutoCloseable {

  private final T object;
  private final String owner;
  private final io.sediment.db.diagnostics.LeakRegistry.Registration registration;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Managed(T object, String owner) {
    this.object = object;
    this.owner = owner;
    this.registration = NativeTracker.register(object, owner);
  }

  static <T extends AbstractNativeReference> Managed<T> of(T object, String owner) {
    return new Managed<>(object, owner);
  }

  T get() {
    if (closed.get()) {
      throw new IllegalStateException(object.getClass().getSimpleName() + " of " + owner + " is closed");
    }
    return object;
  }

  /** Where the object was created; {@code null} unless leak detection is on. */
  Throwable site() {
    return registration.site();
  }

  boolean isClosed() {
    return closed.get();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        object.close();
      } finally {
        registration.close();
      }
    }
  }
}
