package io.sediment.freon;

import io.grpc.Channel;
import java.util.EnumMap;
import java.util.Map;

/**
 * Floor (a): each operation as the same number of {@link EchoService} calls as the service makes
 * for it, each with the mean request and response sizes the service run recorded. Thread-safe.
 */
final class EchoCalls implements OpExecutor {

  private final Channel channel;
  private final Map<OpType, byte[][]> requests = new EnumMap<>(OpType.class);
  private final Map<OpType, int[]> responses = new EnumMap<>(OpType.class);

  EchoCalls(Channel channel, CallSizes sizes) {
    this.channel = channel;
    for (OpType t : OpType.values()) {
      byte[][] r = new byte[t.calls()][];
      int[] a = new int[t.calls()];
      for (int c = 0; c < t.calls(); c++) {
        a[c] = sizes.response(t, c);
        r[c] = EchoService.request(sizes.request(t, c), a[c]);
      }
      requests.put(t, r);
      responses.put(t, a);
    }
  }

  @Override
  public void run(Op op) {
    byte[][] r = requests.get(op.type());
    int[] expected = responses.get(op.type());
    for (int c = 0; c < r.length; c++) {
      int got = EchoService.call(channel, r[c]);
      if (got != expected[c]) {
        throw new IllegalStateException("echo returned " + got + " bytes, not " + expected[c]);
      }
    }
  }
}
