package io.sediment.om.audit;

import com.google.protobuf.Descriptors.FieldDescriptor;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OmServiceGrpc;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Whether an RPC only reads or may change something, as the audit log tells them apart.
 *
 * <p>An {@code OmService} RPC is a write exactly when its request type is one the replicated log
 * carries ({@link OmLogEntry}'s {@code request}), so a new mutating RPC is classified when it is
 * added to the log. Any other service's RPC is a read when its name starts with {@code Get} or
 * {@code List} (the AdminService statistics and status calls), and a write otherwise
 * (compaction, checkpoints, membership changes).
 */
public enum RpcKind {
  READ, WRITE;

  private static final String OM_SERVICE = OmServiceGrpc.SERVICE_NAME;

  /** Full names of the request messages of the writes the replicated log carries. */
  private static final Set<String> LOGGED_REQUESTS = OmLogEntry.getDescriptor().getOneofs()
      .stream().filter(o -> o.getName().equals("request"))
      .flatMap(o -> o.getFields().stream())
      .filter(f -> f.getJavaType() == FieldDescriptor.JavaType.MESSAGE)
      .map(FieldDescriptor::getMessageType)
      .flatMap(t -> {
        FieldDescriptor wrapped = t.findFieldByName("request");
        return wrapped == null || wrapped.getJavaType() != FieldDescriptor.JavaType.MESSAGE
            ? Stream.of(t.getFullName())
            : Stream.of(t.getFullName(), wrapped.getMessageType().getFullName());
      })
      .collect(Collectors.toUnmodifiableSet());

  /** {@code read} or {@code write}, as written in the audit line. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The kind of the RPC {@code fullMethodName} ({@code package.Service/Method}) whose request
   * message type is {@code requestType} (full protobuf name; null when unknown).
   */
  static RpcKind of(String fullMethodName, String requestType) {
    int slash = fullMethodName.lastIndexOf('/');
    String service = slash < 0 ? "" : fullMethodName.substring(0, slash);
    String method = fullMethodName.substring(slash + 1);
    if (service.equals(OM_SERVICE)) {
      return requestType != null && LOGGED_REQUESTS.contains(requestType) ? WRITE : READ;
    }
    return method.startsWith("Get") || method.startsWith("List") ? READ : WRITE;
  }
}
