package io.sediment.om.audit;

import com.google.protobuf.Message;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.sediment.om.auth.CallPrincipal;
import io.sediment.om.auth.Principal;
import io.sediment.om.grpc.RequestIds;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.slf4j.Logger;

/**
 * Writes one {@link AuditEntry} per call to an SLF4J logger (see {@link AuditLogFile}): who made
 * it, from where, which RPC on what resource, how it ended and how long it took.
 *
 * <p>It must run outside the authenticating interceptor (and {@link RequestIds}): it puts a
 * {@link CallPrincipal.Slot} in the call's context, so the principal authentication binds inside
 * reaches the line, and a call refused before any principal is bound is recorded with principal
 * {@code -}. The resource is read from the first request message (only its volume, bucket and
 * key-like names, see {@link RequestResource}); headers are never read except the request ids,
 * so credentials cannot reach the log, and a failure's description is shortened and has anything
 * after {@code Bearer} masked.
 *
 * <p>What is written, and at which level: failures and denials (any status but OK) and
 * successful writes always, at WARN; successful reads as {@link AuditReads} says, at INFO. The
 * level is how the asynchronous file appender tells them apart: it drops INFO lines rather than
 * make a read wait for a slow disk, and keeps every WARN line.
 *
 * <p>A call is recorded once: when the server closes it, when the client cancels it, or, if it
 * was closed outside this interceptor (a request that is not a valid message), when it
 * completes, with status {@code UNKNOWN}. Thread-safe.
 */
public final class AuditInterceptor implements ServerInterceptor {

  /** The logger the audit lines go to unless another is given. */
  public static final String LOGGER_NAME = "sediment.audit";

  /** The longest failure description written; longer ones are cut and end with "...". */
  static final int MAX_ERROR_CHARS = 300;

  private static final Pattern BEARER = Pattern.compile("(?i)(bearer)\\s+\\S+");

  private final Logger log;
  private final AuditReads reads;
  private final Map<String, RpcKind> kinds = new ConcurrentHashMap<>();

  /**
   * @param log where the lines go (for a file, {@link AuditLogFile#logger()})
   * @param reads which successful reads are written
   */
  public AuditInterceptor(Logger log, AuditReads reads) {
    this.log = Objects.requireNonNull(log, "log");
    this.reads = Objects.requireNonNull(reads, "reads");
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    Audit audit = new Audit(call, headers);
    ServerCall<Q, A> watched = new SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        // Recorded first: a client never learns an outcome before its line is queued.
        audit.end(status);
        super.close(status, trailers);
      }
    };
    Context context = CallPrincipal.withSlot(audit.slot);
    ServerCall.Listener<Q> listener;
    try {
      listener = Contexts.interceptCall(context, watched, headers, next);
    } catch (RuntimeException e) {
      audit.end(Status.fromThrowable(e));
      throw e;
    }
    return new SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onMessage(Q message) {
        audit.request(message);
        super.onMessage(message);
      }

      @Override
      public void onCancel() {
        try {
          super.onCancel();
        } finally {
          audit.end(Status.CANCELLED.withDescription("Cancelled by the client or its deadline"));
        }
      }

      @Override
      public void onComplete() {
        try {
          super.onComplete();
        } finally {
          audit.end(Status.UNKNOWN.withDescription(
              "Ended outside the audited service (a request that is not a valid message?)"));
        }
      }
    };
  }

  private RpcKind kindOf(MethodDescriptor<?, ?> method) {
    return kinds.computeIfAbsent(method.getFullMethodName(), name -> {
      String requestType = null;
      if (method.getRequestMarshaller() instanceof MethodDescriptor.PrototypeMarshaller<?> p
          && p.getMessagePrototype() instanceof Message m) {
        requestType = m.getDescriptorForType().getFullName();
      }
      return RpcKind.of(name, requestType);
    });
  }

  static String remote(SocketAddress address) {
    if (address == null) {
      return "-";
    }
    if (address instanceof InetSocketAddress a && a.getAddress() != null) {
      // The literal address: resolving a name would cost a lookup per call.
      return com.google.common.net.HostAndPort.fromParts(a.getAddress().getHostAddress(),
          a.getPort()).toString();
    }
    return address.toString();
  }

  static String error(Status status) {
    String d = status.getDescription();
    if (status.isOk() || d == null || d.isEmpty()) {
      return null;
    }
    String masked = BEARER.matcher(d).replaceAll("$1 ***");
    return masked.length() <= MAX_ERROR_CHARS ? masked
        : masked.substring(0, MAX_ERROR_CHARS - 3) + "...";
  }

  /** One call being audited; {@link #end} writes its line once. */
  private final class Audit {
    private final Instant time = Instant.now();
    private final long startNanos = System.nanoTime();
    private final CallPrincipal.Slot slot = new CallPrincipal.Slot();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final ServerCall<?, ?> call;
    private final RequestIds.Ids ids;
    private volatile Message request;

    Audit(ServerCall<?, ?> call, Metadata headers) {
      this.call = call;
      this.ids = RequestIds.of(headers);
    }

    void request(Object message) {
      if (request == null && message instanceof Message m) {
        request = m;
      }
    }

    void end(Status status) {
      if (!ended.compareAndSet(false, true)) {
        return;
      }
      long micros = (System.nanoTime() - startNanos) / 1_000;
      RpcKind kind = kindOf(call.getMethodDescriptor());
      boolean always = !status.isOk() || kind == RpcKind.WRITE;
      if (!always && !reads.admit()) {
        return;
      }
      Message req = request;
      RequestResource.Named named = req == null ? null : RequestResource.of(req);
      Principal p = slot.principal();
      AuditEntry entry = new AuditEntry(time, p == null ? "-" : p.name(),
          remote(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR)),
          call.getMethodDescriptor().getFullMethodName(), kind,
          named == null ? "-" : named.resource().toString(),
          named == null ? null : named.target(), status.getCode().name(), error(status), micros,
          ids == null ? null : ids.clientId() + ":" + ids.callId());
      try {
        if (always) {
          log.warn(entry.toJson());
        } else {
          log.info(entry.toJson());
        }
      } catch (RuntimeException e) {
        // An audit failure must not fail the call; logback reports its own errors.
      }
    }
  }
}
