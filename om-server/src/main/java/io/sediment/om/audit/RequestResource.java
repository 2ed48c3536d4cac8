package io.sediment.om.audit;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.sediment.om.auth.Resource;
import io.sediment.proto.om.AclResource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a request names, for the audit log: the {@link Resource} from its {@code volume},
 * {@code bucket} and key-like string fields (an ACL request's from its {@code target} message),
 * and for a rename its destination.
 *
 * <p>Only these named string fields are read; every other field (owners, sizes, page tokens,
 * anything a secret may be in) is ignored, so nothing but names reaches the log. A request
 * without a {@code volume} field names the service ({@code /}).
 *
 * <p>Thread-safe.
 */
final class RequestResource {

  /** The fields naming a key, a file or a directory, the first non-empty one winning. */
  private static final List<String> KEY_FIELDS = List.of("key", "path", "from_key", "from_path");
  /** An ACL target's: its key, or its key-name prefix (a listing's prefix names no resource). */
  private static final List<String> ACL_TARGET_KEY_FIELDS = List.of("key", "prefix");
  /** The fields naming a rename's destination. */
  private static final List<String> TARGET_FIELDS = List.of("to_key", "to_path");

  /** The fields read, per request type. */
  private record Fields(FieldDescriptor volume, FieldDescriptor bucket,
      List<FieldDescriptor> keys, FieldDescriptor target, FieldDescriptor aclTarget) {}

  private static final Map<Descriptor, Fields> FIELDS = new ConcurrentHashMap<>();

  /** A resource and, for a rename, where it goes ({@code null} otherwise). */
  record Named(Resource resource, String target) {}

  private RequestResource() {}

  /** What {@code request} names; the service for a message that names no volume. */
  static Named of(Message request) {
    Fields f = FIELDS.computeIfAbsent(request.getDescriptorForType(), RequestResource::fieldsOf);
    if (f.aclTarget() != null) {
      return of((Message) request.getField(f.aclTarget()));
    }
    String volume = string(request, f.volume());
    if (volume.isEmpty()) {
      return new Named(Resource.service(), null);
    }
    String bucket = string(request, f.bucket());
    Resource resource;
    if (bucket.isEmpty()) {
      resource = Resource.volume(volume);
    } else {
      String key = "";
      for (FieldDescriptor k : f.keys()) {
        key = string(request, k);
        if (!key.isEmpty()) {
          break;
        }
      }
      resource = key.isEmpty() ? Resource.bucket(volume, bucket)
          : Resource.key(volume, bucket, key);
    }
    String target = string(request, f.target());
    return new Named(resource, target.isEmpty() || bucket.isEmpty() ? null
        : Resource.key(volume, bucket, target).toString());
  }

  private static Fields fieldsOf(Descriptor type) {
    List<String> keyFields = type.equals(AclResource.getDescriptor()) ? ACL_TARGET_KEY_FIELDS
        : KEY_FIELDS;
    List<FieldDescriptor> keys = keyFields.stream().map(n -> stringField(type, List.of(n)))
        .filter(java.util.Objects::nonNull).toList();
    FieldDescriptor target = type.findFieldByName("target");
    FieldDescriptor aclTarget = target != null && !target.isRepeated()
        && target.getJavaType() == FieldDescriptor.JavaType.MESSAGE ? target : null;
    return new Fields(stringField(type, List.of("volume")), stringField(type, List.of("bucket")),
        keys, stringField(type, TARGET_FIELDS), aclTarget);
  }

  private static FieldDescriptor stringField(Descriptor type, List<String> names) {
    for (String name : names) {
      FieldDescriptor f = type.findFieldByName(name);
      if (f != null && !f.isRepeated() && f.getJavaType() == FieldDescriptor.JavaType.STRING) {
        return f;
      }
    }
    return null;
  }

  private static String string(Message m, FieldDescriptor f) {
    return f == null ? "" : (String) m.getField(f);
  }
}
