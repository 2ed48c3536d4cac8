package io.sediment.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the server acknowledged, per key, as the oracle a restarted server is checked against.
 * Every key is written by one writer only. A call that failed or got no answer leaves its key
 * <em>in doubt</em>: either outcome is correct, and the next {@link #check} settles it from what
 * the server shows. An acknowledged commit must be present after any crash, an acknowledged
 * delete absent. Thread safe.
 */
final class AckLedger {

  enum State { COMMIT_IN_DOUBT, COMMITTED, DELETE_IN_DOUBT, DELETED }

  private final Map<String, State> keys = new ConcurrentHashMap<>();
  private final AtomicLong acknowledgedWrites = new AtomicLong();
  private final AtomicLong acknowledgedDeletes = new AtomicLong();
  private final AtomicLong keyNumbers = new AtomicLong();
  private final List<String> lostSeenLive = java.util.Collections.synchronizedList(new ArrayList<>());

  /** A number no other key of this ledger was given, for naming a new key. */
  long nextKeyNumber() {
    return keyNumbers.getAndIncrement();
  }

  void beginCommit(String key) {
    keys.put(key, State.COMMIT_IN_DOUBT);
  }

  void commitAcknowledged(String key) {
    keys.put(key, State.COMMITTED);
    acknowledgedWrites.incrementAndGet();
  }

  void beginDelete(String key) {
    keys.put(key, State.DELETE_IN_DOUBT);
  }

  void deleteAcknowledged(String key) {
    keys.put(key, State.DELETED);
    acknowledgedDeletes.incrementAndGet();
  }

  /**
   * A delete of an acknowledged, never deleted key answered NOT_FOUND: the committed key was lost
   * while the server ran. Counted as lost at the next {@link #check}.
   */
  void lostWhileLive(String key) {
    lostSeenLive.add(key);
    keys.put(key, State.DELETED);
  }

  long acknowledgedWrites() {
    return acknowledgedWrites.get();
  }

  long acknowledgedDeletes() {
    return acknowledgedDeletes.get();
  }

  /** Keys starting with {@code prefix} whose commit was acknowledged and not deleted since. */
  List<String> committed(String prefix) {
    List<String> out = new ArrayList<>();
    keys.forEach((k, s) -> {
      if (s == State.COMMITTED && k.startsWith(prefix)) {
        out.add(k);
      }
    });
    out.sort(null);
    return out;
  }

  /**
   * Outcome of a check: acknowledged commits missing, acknowledged deletes undone, and how many
   * keys in doubt were settled either way.
   */
  record Check(List<String> lostWrites, List<String> undoneDeletes, int inDoubtSettled,
      int committedChecked, int deletedChecked) {

    int lost() {
      return lostWrites.size() + undoneDeletes.size();
    }

    String describeLoss() {
      StringBuilder sb = new StringBuilder();
      if (!lostWrites.isEmpty()) {
        sb.append(lostWrites.size()).append(" acknowledged writes missing (e.g. ")
            .append(lostWrites.subList(0, Math.min(3, lostWrites.size()))).append(")");
      }
      if (!undoneDeletes.isEmpty()) {
        if (sb.length() > 0) {
          sb.append("; ");
        }
        sb.append(undoneDeletes.size()).append(" acknowledged deletes undone (e.g. ")
            .append(undoneDeletes.subList(0, Math.min(3, undoneDeletes.size()))).append(")");
      }
      return sb.toString();
    }
  }

  /**
   * Checks every key against {@code present} (the server's whole listing of the bucket the keys
   * live in, after a restart) and settles the keys in doubt from it. Call with no writer running.
   */
  Check check(Collection<String> present) {
    Set<String> live = present instanceof Set<String> s ? s : new HashSet<>(present);
    List<String> lost = new ArrayList<>();
    List<String> undone = new ArrayList<>();
    int settled = 0;
    int committed = 0;
    int deleted = 0;
    for (Map.Entry<String, State> e : new TreeMap<>(keys).entrySet()) {
      String key = e.getKey();
      boolean there = live.contains(key);
      switch (e.getValue()) {
        case COMMITTED -> {
          committed++;
          if (!there) {
            lost.add(key);
            keys.put(key, State.DELETED); // counted once
          }
        }
        case DELETED -> {
          deleted++;
          if (there) {
            undone.add(key);
            keys.put(key, State.COMMITTED); // counted once
          }
        }
        case COMMIT_IN_DOUBT, DELETE_IN_DOUBT -> {
          settled++;
          keys.put(key, there ? State.COMMITTED : State.DELETED);
        }
      }
    }
    synchronized (lostSeenLive) {
      lost.addAll(lostSeenLive);
      lostSeenLive.clear();
    }
    return new Check(lost, undone, settled, committed, deleted);
  }
}
