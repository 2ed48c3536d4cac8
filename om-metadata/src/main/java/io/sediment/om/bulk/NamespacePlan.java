package io.sediment.om.bulk;

import io.sediment.om.core.OmException;
import io.sediment.om.core.OmValidation;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * The namespace a {@link NamespaceBulkLoader} builds: new volumes, each holding the same
 * OBJECT_STORE buckets (committed keys and multipart uploads in progress) and FILE_SYSTEM_OPTIMIZED
 * buckets (a tree of directories and files). Every name and count is checked by the compact
 * constructor, before anything is opened or written.
 *
 * <ul>
 *   <li>OBS key {@code i} of every OBS bucket is {@link #keyName(long) keyPrefix + i} as ten
 *       digits ({@code key-0000000042} by default, freon's names), {@code keySize} bytes.
 *   <li>Upload {@code u} of every OBS bucket is of key {@link #uploadKey(long) uploadPrefix + u}
 *       as ten digits, with {@code partsPerUpload} parts of {@code partSize} bytes committed.
 *   <li>Each FSO bucket holds {@code fsoEntries} entries laid out by {@link FsoTreeLayout}:
 *       directories of {@code fsoFanout} subdirectories, each directory (and the bucket's root)
 *       with {@code filesPerDirectory} files of {@code fileSize} bytes.
 * </ul>
 *
 * @param volumes names of the volumes to create (none may exist), distinct
 * @param owner the volumes' owner; buckets, keys, files and uploads take it from there
 * @param obsBuckets names of the OBJECT_STORE buckets of every volume
 * @param fsoBuckets names of the FILE_SYSTEM_OPTIMIZED buckets of every volume (distinct from
 *     {@code obsBuckets})
 */
public record NamespacePlan(List<String> volumes, String owner, List<String> obsBuckets,
    long keysPerBucket, long keySize, String keyPrefix, long uploadsPerBucket,
    int partsPerUpload, long partSize, String uploadPrefix, List<String> fsoBuckets,
    long fsoEntries, int fsoFanout, int filesPerDirectory, long fileSize) {

  /** Digits of the index in generated key names: up to 10^10 - 1 keys or uploads per bucket. */
  public static final int INDEX_DIGITS = 10;
  /** The most keys or uploads per bucket: what {@value #INDEX_DIGITS} digits can number. */
  public static final long MAX_PER_BUCKET = 9_999_999_999L;

  /** @throws OmException INVALID_ARGUMENT naming the first value that breaks a rule */
  public NamespacePlan {
    volumes = List.copyOf(volumes);
    obsBuckets = List.copyOf(obsBuckets);
    fsoBuckets = List.copyOf(fsoBuckets);
    Objects.requireNonNull(keyPrefix, "keyPrefix");
    Objects.requireNonNull(uploadPrefix, "uploadPrefix");
    if (volumes.isEmpty()) {
      throw OmException.invalid("A bulk load needs at least one volume");
    }
    distinct("volume", volumes);
    distinct("bucket", concat(obsBuckets, fsoBuckets));
    for (String v : volumes) {
      OmValidation.checkResourceName("Volume", v);
      for (String b : concat(obsBuckets, fsoBuckets)) {
        OmValidation.checkBucketArgs(v, b);
      }
    }
    OmValidation.checkOwner(owner);
    count("keys per bucket", keysPerBucket, MAX_PER_BUCKET);
    count("uploads per bucket", uploadsPerBucket, MAX_PER_BUCKET);
    count("parts per upload", partsPerUpload, 10_000);
    count("FSO entries per bucket", fsoEntries, Integer.MAX_VALUE);
    if (fsoFanout < 1) {
      throw OmException.invalid("FSO fanout must be at least 1: " + fsoFanout);
    }
    count("files per directory", filesPerDirectory, Integer.MAX_VALUE);
    OmValidation.checkDataSize("Key size", keySize, OmValidation.MAX_OBJECT_BYTES);
    OmValidation.checkDataSize("Part size", partSize, OmValidation.MAX_PART_BYTES);
    OmValidation.checkDataSize("File size", fileSize, OmValidation.MAX_OBJECT_BYTES);
    if (keysPerBucket > 0) {
      OmValidation.checkKeyName(indexed(keyPrefix, 0));
    }
    if (uploadsPerBucket > 0) {
      OmValidation.checkKeyName(indexed(uploadPrefix, 0));
    }
  }

  /** freon's namespace: volume {@code freon}, OBS bucket {@code obs}, FSO bucket {@code fso}. */
  public static Builder freon() {
    return new Builder();
  }

  /** OBS key {@code i}: the key prefix and {@code i} as {@value #INDEX_DIGITS} digits. */
  public String keyName(long i) {
    return indexed(keyPrefix, i);
  }

  /** The key of upload {@code u}: the upload prefix and {@code u} as {@value #INDEX_DIGITS} digits. */
  public String uploadKey(long u) {
    return indexed(uploadPrefix, u);
  }

  /** Buckets per volume. */
  public int bucketsPerVolume() {
    return obsBuckets.size() + fsoBuckets.size();
  }

  /** {@code prefix} and {@code i} as {@value #INDEX_DIGITS} digits (no format parsing: per row). */
  static String indexed(String prefix, long i) {
    String digits = Long.toString(i);
    return prefix + "0".repeat(Math.max(0, INDEX_DIGITS - digits.length())) + digits;
  }

  private static void count(String what, long n, long max) {
    if (n < 0 || n > max) {
      throw OmException.invalid(what + " must be in [0, " + max + "]: " + n);
    }
  }

  private static void distinct(String what, List<String> names) {
    HashSet<String> seen = new HashSet<>();
    for (String n : names) {
      if (!seen.add(n)) {
        throw OmException.invalid("The " + what + " '" + n + "' is named twice");
      }
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }

  /** Builds a plan from freon's defaults; every setter replaces one value. */
  public static final class Builder {
    private List<String> volumes = List.of("freon");
    private String owner = "freon";
    private List<String> obsBuckets = List.of("obs");
    private long keysPerBucket;
    private long keySize = 4096;
    private String keyPrefix = "key-";
    private long uploadsPerBucket;
    private int partsPerUpload = 1;
    private long partSize = 5L << 20;
    private String uploadPrefix = "mpu/key-";
    private List<String> fsoBuckets = List.of("fso");
    private long fsoEntries;
    private int fsoFanout = 10;
    private int filesPerDirectory = 100;
    private long fileSize = 4096;

    private Builder() {
    }

    public Builder volumes(List<String> names) { this.volumes = names; return this; }
    public Builder owner(String name) { this.owner = name; return this; }
    public Builder obsBuckets(List<String> names) { this.obsBuckets = names; return this; }
    public Builder keysPerBucket(long n) { this.keysPerBucket = n; return this; }
    public Builder keySize(long bytes) { this.keySize = bytes; return this; }
    public Builder keyPrefix(String prefix) { this.keyPrefix = prefix; return this; }
    public Builder uploadsPerBucket(long n) { this.uploadsPerBucket = n; return this; }
    public Builder partsPerUpload(int n) { this.partsPerUpload = n; return this; }
    public Builder partSize(long bytes) { this.partSize = bytes; return this; }
    public Builder uploadPrefix(String prefix) { this.uploadPrefix = prefix; return this; }
    public Builder fsoBuckets(List<String> names) { this.fsoBuckets = names; return this; }
    public Builder fsoEntries(long n) { this.fsoEntries = n; return this; }
    public Builder fsoFanout(int n) { this.fsoFanout = n; return this; }
    public Builder filesPerDirectory(int n) { this.filesPerDirectory = n; return this; }
    public Builder fileSize(long bytes) { this.fileSize = bytes; return this; }

    /** @throws OmException INVALID_ARGUMENT as the plan's constructor */
    public NamespacePlan build() {
      return new NamespacePlan(volumes, owner, obsBuckets, keysPerBucket, keySize, keyPrefix,
          uploadsPerBucket, partsPerUpload, partSize, uploadPrefix, fsoBuckets, fsoEntries,
          fsoFanout, filesPerDirectory, fileSize);
    }
  }
}
