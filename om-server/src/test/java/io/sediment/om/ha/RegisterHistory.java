package io.sediment.om.ha;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The history of one key seen as a register (value: a committed key's size, or absent), and a
 * Wing–Gong linearizability check of it: is there an order of the operations, each placed between
 * its invocation and its response, in which every read returns the value of the last write before
 * it? Writes whose outcome the client never learned (the call failed) may take effect at any point
 * after their invocation, or never.
 *
 * <p>Not thread-safe: record under the caller's lock, check once recording is over.
 */
final class RegisterHistory {

  /** What an operation did: a write of {@code value} (null deletes), or a read that saw it. */
  enum Kind { WRITE, READ }

  /**
   * One operation.
   *
   * @param invoked when the client called (nanos)
   * @param returned when it returned; {@link Long#MAX_VALUE} if its outcome is unknown
   * @param value the value written, or the value read (null: absent)
   */
  record Op(int id, Kind kind, Long value, long invoked, long returned) {
    boolean unknown() {
      return returned == Long.MAX_VALUE;
    }
  }

  private final List<Op> ops = new ArrayList<>();

  void write(Long value, long invoked, long returned) {
    ops.add(new Op(ops.size(), Kind.WRITE, value, invoked, returned));
  }

  /** A write whose outcome is unknown (the call failed): it may or may not have happened. */
  void writeUnknown(Long value, long invoked) {
    ops.add(new Op(ops.size(), Kind.WRITE, value, invoked, Long.MAX_VALUE));
  }

  void read(Long seen, long invoked, long returned) {
    ops.add(new Op(ops.size(), Kind.READ, seen, invoked, returned));
  }

  int size() {
    return ops.size();
  }

  /** Whether the history is linearizable from an absent initial value. */
  boolean linearizable() {
    List<Op> sorted = new ArrayList<>(ops);
    sorted.sort(Comparator.comparingLong(Op::invoked));
    BitSet done = new BitSet(sorted.size());
    return search(sorted, done, null, new HashSet<>());
  }

  private record Memo(BitSet done, Long state) {}

  private static boolean search(List<Op> ops, BitSet done, Long state, Set<Memo> failed) {
    if (allKnownDone(ops, done)) {
      return true;
    }
    Memo memo = new Memo((BitSet) done.clone(), state);
    if (failed.contains(memo)) {
      return false;
    }
    // The candidates: pending operations invoked before every pending known response.
    long horizon = Long.MAX_VALUE;
    for (int i = done.nextClearBit(0); i < ops.size(); i = done.nextClearBit(i + 1)) {
      horizon = Math.min(horizon, ops.get(i).returned());
    }
    for (int i = done.nextClearBit(0); i < ops.size(); i = done.nextClearBit(i + 1)) {
      Op op = ops.get(i);
      if (op.invoked() > horizon) {
        break;
      }
      Long next;
      if (op.kind() == Kind.WRITE) {
        next = op.value();
      } else if (Objects.equals(op.value(), state)) {
        next = state;
      } else {
        continue;
      }
      done.set(i);
      if (search(ops, done, next, failed)) {
        return true;
      }
      done.clear(i);
    }
    failed.add(memo);
    return false;
  }

  /** Every operation with a known outcome is placed (the unknown ones may be left out). */
  private static boolean allKnownDone(List<Op> ops, BitSet done) {
    for (int i = done.nextClearBit(0); i < ops.size(); i = done.nextClearBit(i + 1)) {
      if (!ops.get(i).unknown()) {
        return false;
      }
    }
    return true;
  }
}
