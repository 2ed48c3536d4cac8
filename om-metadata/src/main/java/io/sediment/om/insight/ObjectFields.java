package io.sediment.om.insight;

import io.sediment.om.core.ReplicationConfigs;
import io.sediment.om.core.ReplicationText;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.FileStatus;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.PartInfo;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.ReplicationType;
import io.sediment.proto.om.VolumeInfo;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON field names and values of volumes, buckets, keys, directories, file statuses,
 * multipart uploads and parts, spelled once for every surface that prints them (Recon's {@code objectInfo}, the
 * {@code sediment} shell's {@code --json}). Names follow Ozone's shell and Recon
 * ({@code name}, {@code volumeName}, {@code bucketLayout}, {@code dataSize}, {@code quotaInBytes},
 * ...). Every field is present, zero values included; sizes, counts, ids and times are numbers
 * (times in epoch milliseconds); {@code metadata} is an object sorted by name;
 * {@code replicationConfig} is an object of {@link #replication}'s fields (a bucket's is null
 * when it has no default). Each call returns a
 * new mutable map in a fixed field order, so a caller may add its own fields (Recon adds
 * {@code usedBytes}). Stateless and thread-safe.
 */
public final class ObjectFields {

  private ObjectFields() {
  }

  /** A volume: name, owner, admin, quotas, times, object id, metadata. */
  public static Map<String, Object> volume(VolumeInfo v) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("name", v.getName());
    o.put("owner", v.getOwner());
    o.put("admin", v.getAdmin());
    o.put("quotaInBytes", v.getQuotaInBytes());
    o.put("quotaInNamespace", v.getQuotaInNamespace());
    o.put("creationTime", v.getCreationTime());
    o.put("modificationTime", v.getModificationTime());
    o.put("objectId", v.getObjectId());
    o.put("metadata", new TreeMap<>(v.getMetadataMap()));
    return o;
  }

  /**
   * A bucket: volume, name, layout (the enum's name), owner, quotas, times, ids, metadata, and
   * {@code replicationConfig}, its default for new keys (null when it has none).
   */
  public static Map<String, Object> bucket(BucketInfo b) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("volumeName", b.getVolumeName());
    o.put("name", b.getBucketName());
    o.put("bucketLayout", b.getLayout().name());
    o.put("owner", b.getOwner());
    o.put("quotaInBytes", b.getQuotaInBytes());
    o.put("quotaInNamespace", b.getQuotaInNamespace());
    o.put("creationTime", b.getCreationTime());
    o.put("modificationTime", b.getModificationTime());
    o.put("objectId", b.getObjectId());
    o.put("metadata", new TreeMap<>(b.getMetadataMap()));
    o.put("replicationConfig", b.hasDefaultReplicationConfig()
        ? replication(b.getDefaultReplicationConfig()) : null);
    return o;
  }

  /**
   * A key or file: volume, bucket, {@code name} (the caller's: the key name, or an FSO file's full
   * path or last component), size, replication config (RATIS/THREE for a row written before
   * keys had one), owner, times, object id, metadata.
   */
  public static Map<String, Object> key(KeyInfo k, String name) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("volumeName", k.getVolumeName());
    o.put("bucketName", k.getBucketName());
    o.put("name", name);
    o.put("dataSize", k.getDataSize());
    o.put("replicationConfig", replication(ReplicationConfigs.of(k)));
    o.put("owner", k.getOwner());
    o.put("creationTime", k.getCreationTime());
    o.put("modificationTime", k.getModificationTime());
    o.put("objectId", k.getObjectId());
    o.put("metadata", new TreeMap<>(k.getMetadataMap()));
    return o;
  }

  /** {@link #key(KeyInfo, String)} named by its {@code key_name}. */
  public static Map<String, Object> key(KeyInfo k) {
    return key(k, k.getKeyName());
  }

  /** A directory of an FSO bucket: name (last component), owner, times, object id, metadata. */
  public static Map<String, Object> directory(DirectoryInfo d) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("name", d.getName());
    o.put("owner", d.getOwner());
    o.put("creationTime", d.getCreationTime());
    o.put("modificationTime", d.getModificationTime());
    o.put("objectId", d.getObjectId());
    o.put("metadata", new TreeMap<>(d.getMetadataMap()));
    return o;
  }

  /**
   * A file or directory of an FSO bucket as a listing sees it ({@link FileStatus}, which carries
   * no metadata): volume, bucket, {@code name} (the full path), whether a directory, size, owner,
   * times, object id, parent id.
   */
  public static Map<String, Object> status(String volume, String bucket, FileStatus s) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("volumeName", volume);
    o.put("bucketName", bucket);
    o.put("name", s.getPath());
    o.put("isDirectory", s.getIsDirectory());
    o.put("dataSize", s.getSize());
    o.put("owner", s.getOwner());
    o.put("creationTime", s.getCreationTime());
    o.put("modificationTime", s.getModificationTime());
    o.put("objectId", s.getObjectId());
    o.put("parentId", s.getParentId());
    return o;
  }

  /**
   * A multipart upload in progress: volume, bucket, key {@code name}, upload id, owner, time,
   * and the completed key's replication config.
   */
  public static Map<String, Object> upload(MultipartUploadInfo u) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("volumeName", u.getVolumeName());
    o.put("bucketName", u.getBucketName());
    o.put("name", u.getKeyName());
    o.put("uploadId", u.getUploadId());
    o.put("owner", u.getOwner());
    o.put("creationTime", u.getCreationTime());
    o.put("replicationConfig", replication(ReplicationConfigs.ofUpload(u)));
    return o;
  }

  /**
   * A replication config, in the field names of Ozone's JSON ({@code replicationType},
   * {@code replicationFactor}, {@code requiredNodes}, and EC's {@code data}, {@code parity},
   * {@code codec}, {@code ecChunkSize}) plus {@code replication}, its {@code -r} form
   * ({@code THREE}, {@code rs-6-3-1024k}). Every field is present: a RATIS or STANDALONE config
   * has data, parity and chunk size 0 and codec "", an EC config factor "". The type prints as
   * Ozone's JSON does (STAND_ALONE as {@code STANDALONE}), the codec in upper case ({@code RS}).
   */
  public static Map<String, Object> replication(ReplicationConfig c) {
    boolean ec = c.getType() == ReplicationType.EC;
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("replicationType", ReplicationText.typeName(c));
    o.put("replicationFactor", ec ? "" : c.getFactor().name());
    o.put("requiredNodes", ReplicationConfigs.requiredNodes(c));
    o.put("data", c.getEc().getData());
    o.put("parity", c.getEc().getParity());
    o.put("codec", c.getEc().getCodec().toUpperCase(Locale.ROOT));
    o.put("ecChunkSize", c.getEc().getEcChunkSize());
    o.put("replication", ReplicationText.replication(c));
    return o;
  }

  /** An uploaded part: number, name, size, ETag, time. */
  public static Map<String, Object> part(PartInfo p) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("partNumber", p.getPartNumber());
    o.put("partName", p.getPartName());
    o.put("dataSize", p.getSize());
    o.put("eTag", p.getEtag());
    o.put("modificationTime", p.getModificationTime());
    return o;
  }
}
