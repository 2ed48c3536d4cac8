package io.sediment.om.audit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * One line of the audit log: one finished call.
 *
 * <p>{@link #toJson()} writes it as one JSON object on one line (strings escaped, so a name with
 * a newline or a quote cannot forge a line), with the fields in this order: {@code time} (ISO-8601
 * UTC, the call's start), {@code principal} ({@code -} when none was bound), {@code remote}
 * ({@code address:port}, {@code -} when unknown), {@code rpc} ({@code package.Service/Method}),
 * {@code kind} ({@code read}/{@code write}), {@code resource} ({@code /vol/bucket/key}, {@code /}
 * for the service, {@code -} when the call ended before its request arrived), {@code to} (a
 * rename's destination; only then), {@code status} (the gRPC code), {@code error} (the status
 * description of a failure, shortened; only then), {@code latency_us}, {@code request_id}
 * ({@code clientId:callId}; only when the client sent them).
 *
 * @param time when the call started
 * @param principal who made it, {@code -} when no one was bound
 * @param remote the peer's address, {@code -} when unknown
 * @param rpc the full method name
 * @param kind read or write
 * @param resource what the request named, {@code -} when no request arrived
 * @param target a rename's destination, or null
 * @param status the gRPC status code's name
 * @param error a failure's description, or null
 * @param latencyMicros from the call's start to its end
 * @param requestId the client's request ids, or null
 */
record AuditEntry(Instant time, String principal, String remote, String rpc, RpcKind kind,
    String resource, String target, String status, String error, long latencyMicros,
    String requestId) {

  private static final JsonFactory JSON = new JsonFactory();

  /** This entry as one line of JSON, without a line end. */
  String toJson() {
    StringWriter out = new StringWriter(256);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("time", time.toString());
      g.writeStringField("principal", principal);
      g.writeStringField("remote", remote);
      g.writeStringField("rpc", rpc);
      g.writeStringField("kind", kind.label());
      g.writeStringField("resource", resource);
      if (target != null) {
        g.writeStringField("to", target);
      }
      g.writeStringField("status", status);
      if (error != null) {
        g.writeStringField("error", error);
      }
      g.writeNumberField("latency_us", latencyMicros);
      if (requestId != null) {
        g.writeStringField("request_id", requestId);
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("Writing to a string cannot fail", e);
    }
    return out.toString();
  }
}
