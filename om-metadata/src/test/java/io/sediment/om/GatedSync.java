package io.sediment.om;

import io.sediment.db.DBStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A store whose WAL syncs are held open, to test what waits for them. */
final class GatedSync {

  private GatedSync() {
  }

  /**
   * {@code store} whose every {@code syncWal} counts {@code syncing} down, then waits for
   * {@code release} before syncing; every other call goes straight through.
   */
  static DBStore holding(DBStore store, CountDownLatch syncing, CountDownLatch release) {
    return (DBStore) Proxy.newProxyInstance(DBStore.class.getClassLoader(),
        new Class<?>[] {DBStore.class}, (proxy, method, args) -> {
          if (method.getName().equals("syncWal")) {
            syncing.countDown();
            release.await();
          }
          try {
            return method.invoke(store, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  /** Whether {@code f} completes (normally or not) within {@code millis}. */
  static boolean finishesWithin(Future<?> f, long millis) throws Exception {
    try {
      f.get(millis, TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (java.util.concurrent.ExecutionException e) {
      return true;
    }
  }
}
