package io.sediment.om.grpc;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmException;
import io.sediment.om.core.ReplicationConfigs;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.CreateFileRequest;
import io.sediment.proto.om.InitiateMultipartUploadRequest;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.ReplicationConfig;

/**
 * Decides the replication config of a new key, file or upload before its write is logged: the
 * request's own (checked: INVALID_ARGUMENT, nothing submitted), else its bucket's default as the
 * deciding server's store has it, else that store's default
 * ({@link io.sediment.om.core.OmStoreOptions#defaultReplication}, a per-server setting). The
 * decided config travels in the request inside the log entry, so every replica records the same
 * one whatever its own setting, and a bucket update applied between the decision and the entry
 * cannot change it: the key gets the default of the bucket as it was when the call was decided.
 *
 * <p>A request whose bucket cannot be read (a bad name, a missing volume or bucket) gets the
 * store's default: applying it fails as it would have.
 *
 * <p>Applying a request without a config, which only a log written before keys had one holds,
 * gives the key {@link ReplicationConfigs#DEFAULT}, the config every key of such a store reads
 * as, on every replica alike ({@link #applied}).
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
record ReplicationChoice(OmMetadataStore store) {

  OpenKeyRequest decide(OpenKeyRequest req) {
    return req.toBuilder().setReplicationConfig(decide(req.getVolume(), req.getBucket(),
        req.hasReplicationConfig() ? req.getReplicationConfig() : null)).build();
  }

  CreateFileRequest decide(CreateFileRequest req) {
    return req.toBuilder().setReplicationConfig(decide(req.getVolume(), req.getBucket(),
        req.hasReplicationConfig() ? req.getReplicationConfig() : null)).build();
  }

  InitiateMultipartUploadRequest decide(InitiateMultipartUploadRequest req) {
    return req.toBuilder().setReplicationConfig(decide(req.getVolume(), req.getBucket(),
        req.hasReplicationConfig() ? req.getReplicationConfig() : null)).build();
  }

  private ReplicationConfig decide(String volume, String bucket, ReplicationConfig requested) {
    if (requested != null) {
      return ReplicationConfigs.check(requested);
    }
    BucketInfo b;
    try {
      b = store.getBucketInfo(volume, bucket);
    } catch (OmException e) {
      b = null;
    }
    return ReplicationConfigs.resolve(null, b, store.options().defaultReplication());
  }

  /** The config an entry's request carries, or the default for one logged without it. */
  static ReplicationConfig applied(boolean present, ReplicationConfig config) {
    return present ? config : ReplicationConfigs.DEFAULT;
  }
}
