package io.sediment.db.managed;

import io.sediment.db.diagnostics.LeakRegistry;

/**
 * The registry of every live native RocksDB object Sediment created; {@link Managed} registers
 * and unregisters them. Tests compare snapshots of it to fail on a leaked handle.
 */
public final class NativeTracker {

  /** Live native objects. */
  public static final LeakRegistry REGISTRY = new LeakRegistry("native RocksDB object");

  private NativeTracker() {
  }

  static LeakRegistry.Registration register(Object nativeObject, String owner) {
    return REGISTRY.register(nativeObject.getClass().getSimpleName(), owner);
  }
}
