package io.sediment.faults;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writer threads against one server: each commits new keys (OpenKey + CommitKey) under its own
 * prefix and deletes some of its own acknowledged keys, recording every call in the ledger before
 * it is sent and every acknowledgement after. A failed call is counted by status code and the
 * writer goes on (after a short pause), so writers outlive a server that stopped answering until
 * {@link #stop}. Each thread also stops at a hard deadline. Not for reuse after {@link #stop}.
 */
final class Writers {

  /** Settings of a writer set. */
  record Settings(int threads, double deleteFraction, int keyPadding, Duration maxRun) {
  }

  private final OmClient client;
  private final String volume;
  private final String bucket;
  private final AckLedger ledger;
  private final Settings settings;
  private final long seed;
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicLong acks = new AtomicLong();
  private final AtomicLong lastAckNanos = new AtomicLong();
  private final Map<Status.Code, Long> failures = new TreeMap<>();
  private final Map<Status.Code, String> firstMessage = new TreeMap<>();
  private volatile boolean stopping;

  Writers(OmClient client, String volume, String bucket, AckLedger ledger, Settings settings,
      long seed) {
    this.client = client;
    this.volume = volume;
    this.bucket = bucket;
    this.ledger = ledger;
    this.settings = settings;
    this.seed = seed;
  }

  void start() {
    long deadline = System.nanoTime() + settings.maxRun().toNanos();
    for (int i = 0; i < settings.threads(); i++) {
      int index = i;
      Thread t = new Thread(() -> write(index, deadline), "faults-writer-" + i);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private void write(int index, long deadline) {
    SplittableRandom random = new SplittableRandom(seed * 31 + index);
    String prefix = "w" + index + "/";
    List<String> mine = ledger.committed(prefix);
    String pad = "p".repeat(settings.keyPadding());
    while (!stopping && System.nanoTime() < deadline) {
      boolean delete = !mine.isEmpty() && random.nextDouble() < settings.deleteFraction();
      String key = delete ? mine.remove(random.nextInt(mine.size()))
          : String.format("%skey-%09d%s", prefix, ledger.nextKeyNumber(), pad);
      try {
        if (delete) {
          ledger.beginDelete(key);
          try {
            client.delete(volume, bucket, key);
            ledger.deleteAcknowledged(key);
          } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() != Status.Code.NOT_FOUND) {
              throw e;
            }
            ledger.lostWhileLive(key);
          }
        } else {
          ledger.beginCommit(key);
          client.commit(volume, bucket, key, 1 + random.nextInt(1 << 20));
          ledger.commitAcknowledged(key);
          mine.add(key);
        }
        acks.incrementAndGet();
        lastAckNanos.set(System.nanoTime());
      } catch (StatusRuntimeException e) {
        failed(e.getStatus());
        pause(20);
      } catch (RuntimeException e) {
        failed(Status.UNKNOWN.withDescription(e.toString()));
        pause(20);
      }
    }
  }

  private synchronized void failed(Status status) {
    failures.merge(status.getCode(), 1L, Long::sum);
    firstMessage.putIfAbsent(status.getCode(), String.valueOf(status.getDescription()));
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Calls acknowledged so far (commits and deletes). */
  long acks() {
    return acks.get();
  }

  /** System.nanoTime() of the last acknowledgement, 0 if none. */
  long lastAckNanos() {
    return lastAckNanos.get();
  }

  /** Waits until at least {@code count} calls were acknowledged; false if {@code max} passed. */
  boolean awaitAcks(long count, Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (acks.get() < count) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  /** Failed calls by status code. */
  synchronized Map<Status.Code, Long> failures() {
    return new TreeMap<>(failures);
  }

  /** The description of the first failure with {@code code}, or null. */
  synchronized String firstMessage(Status.Code code) {
    return firstMessage.get(code);
  }

  synchronized long failureCount() {
    return failures.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Stops the threads and waits for them (each ends after its call in flight, bounded by the
   *  call deadline). */
  void stop() throws InterruptedException {
    stopping = true;
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(60));
    }
  }
}
