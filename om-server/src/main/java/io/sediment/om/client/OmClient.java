package io.sediment.om.client;

import io.grpc.CallOptions;
import io.grpc.ChannelCredentials;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.ForwardingClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client of a Sediment OM, single or replicated, given one or more targets ({@code host:port}
 * of each replica's OmService). Every call goes to the replica believed to lead; a replica that
 * is not the leader answers UNAVAILABLE with the leader's address ({@value #LEADER_HEADER}), which
 * the client follows at once. Other UNAVAILABLE answers (a replica down, an election running)
 * move on to the next target after a backoff (exponential from {@link Options#initialBackoff()} to
 * {@link Options#maxBackoff()}, with jitter) until the call's deadline.
 *
 * <p>Retries never apply a write twice: every call carries this client's id and a call id
 * ({@value #CLIENT_ID_HEADER}, {@value #CALL_ID_HEADER}) kept across its retries, and the group
 * answers a repeated write with the first application's reply (while its retry cache holds it:
 * 60 s). Reads are retried freely. Errors other than UNAVAILABLE are returned as they are.
 *
 * <p>Thread-safe; one client per process is enough (its channels are shared by all calls).
 */
public final class OmClient implements AutoCloseable {

  /** Trailer of a NOT-the-leader answer: the leader's OmService address. */
  public static final String LEADER_HEADER = "sediment-leader";
  public static final String CLIENT_ID_HEADER = "sediment-client-id";
  public static final String CALL_ID_HEADER = "sediment-call-id";

  static final Metadata.Key<String> LEADER =
      Metadata.Key.of(LEADER_HEADER, Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> CLIENT_ID =
      Metadata.Key.of(CLIENT_ID_HEADER, Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> CALL_ID =
      Metadata.Key.of(CALL_ID_HEADER, Metadata.ASCII_STRING_MARSHALLER);

  /**
   * How a client retries.
   *
   * @param callTimeout each call's deadline, retries included (default 30 s)
   * @param initialBackoff the first wait before trying another replica (default 50 ms)
   * @param maxBackoff the longest wait between tries (default 250 ms: once an election is over,
   *     a client learns of the new leader within this, at the price of a few calls a second to
   *     each replica while there is none)
   */
  public record Options(Duration callTimeout, Duration initialBackoff, Duration maxBackoff) {
    public static Options defaults() {
      return new Options(Duration.ofSeconds(30), Duration.ofMillis(50), Duration.ofMillis(250));
    }

    public Options withCallTimeout(Duration d) {
      return new Options(d, initialBackoff, maxBackoff);
    }
  }

  /** The largest answer accepted: a page of the longest listing the server allows. */
  static final int MAX_ANSWER_BYTES = 64 << 20;

  private final List<String> targets;
  private final Options options;
  private final ChannelCredentials credentials;
  private final Map<String, ManagedChannel> channels = new LinkedHashMap<>();
  private final String clientId = UUID.randomUUID().toString();
  private final AtomicLong callIds = new AtomicLong();
  /** The target believed to lead; starts at the first. */
  private volatile String current;

  private OmClient(List<String> targets, Options options, ChannelCredentials credentials) {
    this.targets = List.copyOf(targets);
    this.options = options;
    this.credentials = credentials;
    this.current = targets.get(0);
  }

  /**
   * A client of the replicas at {@code targets} ({@code host:port} each; plaintext).
   *
   * @throws IllegalArgumentException if there is no target
   */
  public static OmClient connect(List<String> targets, Options options) {
    return connect(targets, options, InsecureChannelCredentials.create());
  }

  /**
   * A client of the replicas at {@code targets} whose channels use {@code credentials} (for
   * example TLS: {@link io.sediment.om.tls.TlsMaterial#channelCredentials()}).
   *
   * @throws IllegalArgumentException if there is no target
   */
  public static OmClient connect(List<String> targets, Options options,
      ChannelCredentials credentials) {
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("No target to connect to");
    }
    return new OmClient(targets, Objects.requireNonNull(options, "options"),
        Objects.requireNonNull(credentials, "credentials"));
  }

  /** The target the next call goes to first. */
  public String currentTarget() {
    return current;
  }

  /**
   * Calls {@code method} with {@code request} on the leader, following leader hints and retrying
   * across replicas as the class describes, until the call's deadline.
   *
   * @throws StatusRuntimeException the call's error, or UNAVAILABLE / DEADLINE_EXCEEDED if no
   *     replica answered in time (then a write may or may not have been applied; calling again
   *     from this client within the retry cache's lifetime is safe only with the same ids, so
   *     callers that must know read back)
   */
  public <Q, A> A call(MethodDescriptor<Q, A> method, Q request) {
    long deadline = System.nanoTime() + options.callTimeout().toNanos();
    long callId = callIds.incrementAndGet();
    long backoff = options.initialBackoff().toMillis();
    String target = current;
    StatusRuntimeException last = null;
    int hops = 0;
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw last != null ? last : Status.DEADLINE_EXCEEDED
            .withDescription("No replica answered within " + options.callTimeout())
            .asRuntimeException();
      }
      try {
        A answer = ClientCalls.blockingUnaryCall(channel(target, callId), method,
            CallOptions.DEFAULT.withDeadlineAfter(left, TimeUnit.NANOSECONDS), request);
        current = target;
        return answer;
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() != Status.Code.UNAVAILABLE) {
          throw e;
        }
        last = e;
        String leader = e.getTrailers() == null ? null : e.getTrailers().get(LEADER);
        if (leader != null && !leader.equals(target)) {
          target = leader;
          if (++hops > 1) {
            // Replicas naming each other: an election is running, wait before the next hop.
            sleep(Math.min(backoff, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            backoff = Math.min(backoff * 2, options.maxBackoff().toMillis());
          }
          continue;
        }
        hops = 0;
        target = next(target);
        sleep(Math.min(backoff, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        backoff = Math.min(backoff * 2, options.maxBackoff().toMillis());
      }
    }
  }

  private String next(String target) {
    int i = targets.indexOf(target);
    return targets.get((i + 1) % targets.size());
  }

  private static void sleep(long millis) {
    if (millis <= 0) {
      return;
    }
    try {
      Thread.sleep(millis / 2 + ThreadLocalRandom.current().nextLong(millis / 2 + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Status.CANCELLED.withDescription("Interrupted").asRuntimeException();
    }
  }

  private io.grpc.Channel channel(String target, long callId) {
    ManagedChannel ch;
    synchronized (channels) {
      ch = channels.computeIfAbsent(target, t -> Grpc.newChannelBuilder(t, credentials).maxInboundMessageSize(MAX_ANSWER_BYTES).build());
    }
    return ClientInterceptors.intercept(ch, new io.grpc.ClientInterceptor() {
      @Override
      public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> m, CallOptions o,
          io.grpc.Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(m, o)) {
          @Override
          public void start(Listener<A> listener, Metadata headers) {
            headers.put(CLIENT_ID, clientId);
            headers.put(CALL_ID, Long.toString(callId));
            super.start(listener, headers);
          }
        };
      }
    });
  }

  /**
   * This client as a gRPC channel for generated stubs: every unary call made through it runs as
   * {@link #call} does (following the leader, retrying across a failover with the same ids), on
   * the caller's thread. The stub's deadline is ignored; {@link Options#callTimeout()} applies.
   */
  public io.grpc.Channel asChannel() {
    return new FailoverChannel(this, current);
  }

  /** The channels opened so far, by target (for tests). */
  List<String> openedTargets() {
    synchronized (channels) {
      return new ArrayList<>(channels.keySet());
    }
  }

  @Override
  public void close() {
    synchronized (channels) {
      for (ManagedChannel ch : channels.values()) {
        ch.shutdownNow();
      }
      channels.clear();
    }
  }
}
