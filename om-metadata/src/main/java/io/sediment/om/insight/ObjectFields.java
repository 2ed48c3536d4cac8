package io.sediment.om.insight;

import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.FileStatus;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.PartInfo;
import io.sediment.proto.om.VolumeInfo;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON field names and values of volumes, buckets, keys, directories, file statuses,
 * multipart uploads and parts, spelled once for every surface that prints them (Recon's {@code objectInfo}, the
 * {@code sediment} shell's {@code --json}). Names follow Ozone's shell and Recon
 * ({@code name}, {@code volumeName}, {@code bucketLayout}, {@code dataSize}, {@code quotaInBytes},
 * ...). Every field is present, zero values included; sizes, counts, ids and times are numbers
 * (times in epoch milliseconds); {@code metadata} is an object sorted by name. Each call returns a
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

  /** A bucket: volume, name, layout (the enum's name), owner, quotas, times, ids, metadata. */
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
    return o;
  }

  /**
   * A key or file: volume, bucket, {@code name} (the caller's: the key name, or an FSO file's full
   * path or last component), size, owner, times, object id, metadata.
   */
  public static Map<String, Object> key(KeyInfo k, String name) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("volumeName", k.getVolumeName());
    o.put("bucketName", k.getBucketName());
    o.put("name", name);
    o.put("dataSize", k.getDataSize());
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

  /** A multipart upload in progress: volume, bucket, key {@code name}, upload id, owner, time. */
  public static Map<String, Object> upload(MultipartUploadInfo u) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("volumeName", u.getVolumeName());
    o.put("bucketName", u.getBucketName());
    o.put("name", u.getKeyName());
    o.put("uploadId", u.getUploadId());
    o.put("owner", u.getOwner());
    o.put("creationTime", u.getCreationTime());
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
