package io.sediment.freon;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.io.InputStream;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The client's parse of each response, timed by gRPC method: an interceptor that gives the
 * channel each call's method with its response marshaller wrapped in a clock. The parse is the
 * work a client does with a response once its bytes are in (for a page of 1,000 keys, 1,000
 * messages built), which an echo of the same size does not do. Thread-safe.
 */
final class ResponseParseTimes implements ClientInterceptor {

  /** Per method name: calls, then summed nanoseconds. */
  private final Map<String, LongAdder[]> byMethod = new ConcurrentHashMap<>();
  private final Map<MethodDescriptor<?, ?>, MethodDescriptor<?, ?>> timed =
      new ConcurrentHashMap<>();

  @Override
  public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method,
      CallOptions options, Channel next) {
    @SuppressWarnings("unchecked")
    MethodDescriptor<Q, A> m = (MethodDescriptor<Q, A>) timed.computeIfAbsent(method,
        k -> withTimedParse(method));
    return next.newCall(m, options);
  }

  /** The parses timed so far. */
  CallTimes snapshot() {
    Map<String, Long> counts = new TreeMap<>();
    Map<String, Double> seconds = new TreeMap<>();
    byMethod.forEach((name, s) -> {
      counts.put(name, s[0].sum());
      seconds.put(name, s[1].sum() / 1e9);
    });
    return new CallTimes(counts, seconds);
  }

  private <Q, A> MethodDescriptor<Q, A> withTimedParse(MethodDescriptor<Q, A> method) {
    LongAdder[] sums = byMethod.computeIfAbsent(method.getBareMethodName(),
        k -> new LongAdder[] {new LongAdder(), new LongAdder()});
    MethodDescriptor.Marshaller<A> inner = method.getResponseMarshaller();
    return method.toBuilder(method.getRequestMarshaller(), new MethodDescriptor.Marshaller<A>() {
      @Override
      public InputStream stream(A value) {
        return inner.stream(value);
      }

      @Override
      public A parse(InputStream stream) {
        long start = System.nanoTime();
        try {
          return inner.parse(stream);
        } finally {
          sums[1].add(System.nanoTime() - start);
          sums[0].increment();
        }
      }
    }).build();
  }
}
