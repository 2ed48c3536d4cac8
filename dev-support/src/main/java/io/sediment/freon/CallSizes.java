package io.sediment.freon;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Serialized request and response sizes of the service's calls, per {@link OpType} and call
 * (OpenKey and CommitKey for a create): the echo floor sends and returns their means.
 * Thread-safe.
 */
final class CallSizes {

  /** Calls of each kind whose sizes are recorded; the means of the first this many stand for all. */
  static final int SAMPLE = 1_000;

  private final Map<OpType, LongAdder[][]> sums = new EnumMap<>(OpType.class);

  CallSizes() {
    for (OpType t : OpType.values()) {
      LongAdder[][] s = new LongAdder[t.calls()][3];
      for (LongAdder[] call : s) {
        for (int i = 0; i < call.length; i++) {
          call[i] = new LongAdder();
        }
      }
      sums.put(t, s);
    }
  }

  /**
   * Whether call {@code call} of {@code type} is still to be recorded: fewer than {@link #SAMPLE}
   * were (a few more may be, by threads that asked at once).
   */
  boolean sampling(OpType type, int call) {
    return sums.get(type)[call][0].sum() < SAMPLE;
  }

  /** Records one call {@code call} of {@code type} with these sizes in bytes. */
  void record(OpType type, int call, int requestBytes, int responseBytes) {
    LongAdder[] s = sums.get(type)[call];
    s[0].increment();
    s[1].add(requestBytes);
    s[2].add(responseBytes);
  }

  /** Whether every call of {@code type} was seen at least once. */
  boolean seen(OpType type) {
    for (LongAdder[] call : sums.get(type)) {
      if (call[0].sum() == 0) {
        return false;
      }
    }
    return true;
  }

  /** Mean request size of call {@code call} of {@code type}, 0 if never seen. */
  int request(OpType type, int call) {
    return mean(sums.get(type)[call], 1);
  }

  /** Mean response size of call {@code call} of {@code type}, 0 if never seen. */
  int response(OpType type, int call) {
    return mean(sums.get(type)[call], 2);
  }

  private static int mean(LongAdder[] s, int field) {
    long n = s[0].sum();
    return n == 0 ? 0 : (int) (s[field].sum() / n);
  }
}
