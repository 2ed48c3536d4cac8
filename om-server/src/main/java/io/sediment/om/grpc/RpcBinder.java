package io.sediment.om.grpc;

import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.sediment.om.auth.CallPrincipal;
import io.sediment.om.authz.RpcRights;
import io.sediment.om.requests.ReadGate;
import io.sediment.om.requests.WritePath;
import io.sediment.proto.om.OmLogEntry;
import java.io.ByteArrayInputStream;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Binds the RPCs of an area class: a read runs its handler after the {@link ReadGate}; a write is
 * put into a log entry and runs through the {@link WritePath}, which applies it with the handler
 * registered here for the entry's request ({@link #route}); the call is answered when the path
 * completes the write, so a path that waits for a group holds no handler thread meanwhile.
 * Binding without a service only collects those handlers (for the state machine of a replica).
 *
 * <p>With {@link RpcRights}, every RPC's guard admits the caller ({@link CallPrincipal}) first:
 * a read after the read gate, a write on the leader before its log entry is built and submitted,
 * so the entry carries what the guard decided (the owner of what it creates) and the replicas
 * apply it without checking again. A denied call runs nothing.
 *
 * <p>Not thread-safe: used while a service is built; the routes it collected are then read-only.
 */
final class RpcBinder {

  /** How a write request is put into a log entry, taken out again, and applied. */
  record WriteRoute<Q extends Message>(Function<OmLogEntry, Q> request,
      Function<Q, ? extends Message> handler) {

    Message apply(OmLogEntry entry) {
      return handler.apply(request.apply(entry));
    }
  }

  private final ServerServiceDefinition.Builder service;
  private final ReadGate reads;
  private final WritePath writes;
  private final Executor completions;
  /** Null when calls are not checked. */
  private final RpcRights rights;
  private final Map<OmLogEntry.RequestCase, WriteRoute<?>> routes =
      new EnumMap<>(OmLogEntry.RequestCase.class);

  /**
   * @param service where the RPCs are added, or null to collect the write routes only
   * @param completions where a write's call is answered once its path completes it
   */
  RpcBinder(ServerServiceDefinition.Builder service, ReadGate reads, WritePath writes,
      Executor completions) {
    this(service, reads, writes, completions, null);
  }

  /**
   * @param rights the checks every bound RPC passes first, or null for none
   * @throws IllegalStateException (when binding) for an RPC {@code rights} has no rule for
   */
  RpcBinder(ServerServiceDefinition.Builder service, ReadGate reads, WritePath writes,
      Executor completions, RpcRights rights) {
    this.rights = rights;
    this.service = service;
    this.reads = reads;
    this.writes = writes;
    this.completions = completions;
  }

  /** Binds a read-only RPC. */
  <Q, R> void read(MethodDescriptor<Q, R> method, Function<Q, R> handler) {
    if (service != null) {
      RpcRights.Guard<Q> guard = rights == null ? null : rights.guard(method);
      UnaryCalls.bind(service, method, req -> {
        reads.beforeRead();
        return handler.apply(guard == null ? req : guard.admit(CallPrincipal.current(), req));
      });
    }
  }

  /**
   * Binds a mutating RPC: {@code into} puts its request into a log entry, {@code outOf} takes it
   * out, {@code handler} applies it.
   */
  <Q extends Message, R extends Message> void write(MethodDescriptor<Q, R> method,
      BiConsumer<OmLogEntry.Builder, Q> into, Function<OmLogEntry, Q> outOf,
      Function<Q, R> handler) {
    write(method, into, outOf, handler, req -> { });
  }

  /**
   * {@link #write(MethodDescriptor, BiConsumer, Function, Function)}, with {@code authorize} run
   * on the serving thread, in the call's context, before the entry is submitted: what it throws
   * answers the call and nothing is submitted. Applying an entry (here or on a replica) does not
   * run it again.
   */
  <Q extends Message, R extends Message> void write(MethodDescriptor<Q, R> method,
      BiConsumer<OmLogEntry.Builder, Q> into, Function<OmLogEntry, Q> outOf,
      Function<Q, R> handler, Consumer<Q> authorize) {
    writeDecided(method, req -> {
      authorize.accept(req);
      return req;
    }, into, outOf, handler);
  }

  /**
   * Binds a mutating RPC whose log entry carries what the submitting replica decided besides the
   * request: {@code decide} makes the entry's payload from the admitted request on the serving
   * thread, in the call's context, before anything is submitted (on a group's leader, so every
   * replica applies the leader's decision); what it throws answers the call and nothing is
   * submitted. {@code into} puts the payload into a log entry, {@code outOf} takes it out,
   * {@code handler} applies it; applying an entry (here or on a replica) does not run
   * {@code decide} again.
   */
  <Q extends Message, E extends Message, R extends Message> void writeDecided(
      MethodDescriptor<Q, R> method, Function<Q, E> decide,
      BiConsumer<OmLogEntry.Builder, E> into, Function<OmLogEntry, E> outOf,
      Function<E, R> handler) {
    OmLogEntry.Builder probe = OmLogEntry.newBuilder();
    // An entry without the field answers its default instance, which selects the field's case.
    into.accept(probe, outOf.apply(OmLogEntry.getDefaultInstance()));
    if (routes.put(probe.getRequestCase(), new WriteRoute<>(outOf, handler)) != null) {
      throw new IllegalStateException("Two handlers for " + probe.getRequestCase());
    }
    if (service != null) {
      Parser<R> parser = parserOf(method);
      RpcRights.Guard<Q> guard = rights == null ? null : rights.guard(method);
      UnaryCalls.bindAsync(service, method, req -> {
        Q admitted = req;
        if (guard != null) {
          // Decided against the leader's state: a follower refuses before checking.
          writes.beforeSubmit();
          admitted = guard.admit(CallPrincipal.current(), req);
        }
        OmLogEntry.Builder entry = OmLogEntry.newBuilder();
        into.accept(entry, decide.apply(admitted));
        return writes.writeAsync(entry, parser);
      }, completions);
    }
  }

  /** The checks every bound RPC passes first, or null when calls are not checked. */
  RpcRights rights() {
    return rights;
  }

  @SuppressWarnings("unchecked")
  private static <R extends Message> Parser<R> parserOf(MethodDescriptor<?, R> method) {
    var marshaller = (MethodDescriptor.PrototypeMarshaller<R>) method.getResponseMarshaller();
    return (Parser<R>) marshaller.getMessagePrototype().getParserForType();
  }

  /** The write routes bound so far, by the log entry's request. */
  Map<OmLogEntry.RequestCase, WriteRoute<?>> routes() {
    return routes;
  }
}
