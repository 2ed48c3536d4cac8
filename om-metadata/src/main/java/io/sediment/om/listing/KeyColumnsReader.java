package io.sediment.om.listing;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.sediment.db.codec.CodecException;
import io.sediment.proto.om.KeyColumns;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ReplicationConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The keys of a {@link KeyColumns} page, read by index (0 to {@link #size()} - 1, in key order).
 * The columns are checked consistent when read (one entry per key in each per-key column, the
 * names and ETags exactly as long as their lengths add up to, every index inside its
 * dictionary); a name or ETag is decoded only when asked for. Immutable and thread-safe.
 */
public final class KeyColumnsReader {

  private final KeyColumns columns;
  private final int[] nameStarts;
  private final int[] etagStarts;

  private KeyColumnsReader(KeyColumns columns) {
    this.columns = columns;
    int n = columns.getNameLengthsCount();
    check(columns.getDataSizesCount() == n, "data_sizes");
    check(columns.getCreationTimesCount() == n, "creation_times");
    check(columns.getModificationTimesCount() == n, "modification_times");
    check(columns.getOwnerIndexesCount() == n, "owner_indexes");
    check(columns.getReplicationConfigIndexesCount() == n, "replication_config_indexes");
    check(columns.getEtagLengthsCount() == n, "etag_lengths");
    nameStarts = starts(columns.getNameLengthsList(), columns.getNames(), "names");
    etagStarts = starts(columns.getEtagLengthsList(), columns.getEtags(), "etags");
    for (int i = 0; i < n; i++) {
      check(Integer.compareUnsigned(columns.getOwnerIndexes(i), columns.getOwnersCount()) < 0,
          "owner_indexes");
      check(Integer.compareUnsigned(columns.getReplicationConfigIndexes(i),
          columns.getReplicationConfigsCount()) < 0, "replication_config_indexes");
    }
  }

  /**
   * The reader of {@code columns}.
   *
   * @throws CodecException if the columns are not consistent
   */
  public static KeyColumnsReader of(KeyColumns columns) {
    return new KeyColumnsReader(columns);
  }

  /**
   * The reader of the {@link KeyColumns} encoded as {@code encoded}.
   *
   * @throws CodecException if it does not parse or the columns are not consistent
   */
  public static KeyColumnsReader parse(ByteString encoded) {
    try {
      return of(KeyColumns.parseFrom(encoded));
    } catch (InvalidProtocolBufferException e) {
      throw new CodecException("Not valid KeyColumns: " + e.getMessage());
    }
  }

  /** How many keys the page holds. */
  public int size() {
    return nameStarts.length - 1;
  }

  /**
   * Key {@code i}'s name.
   *
   * @throws CodecException if its bytes are not UTF-8
   */
  public String name(int i) {
    return utf8(columns.getNames(), nameStarts, i, "name");
  }

  public long dataSize(int i) {
    return columns.getDataSizes(i);
  }

  public long creationTime(int i) {
    return columns.getCreationTimes(i);
  }

  public long modificationTime(int i) {
    return columns.getModificationTimes(i);
  }

  public String owner(int i) {
    return columns.getOwners(columns.getOwnerIndexes(i));
  }

  /** Key {@code i}'s replication config: the empty message when its row has none. */
  public ReplicationConfig replicationConfig(int i) {
    return columns.getReplicationConfigs(columns.getReplicationConfigIndexes(i));
  }

  /**
   * Key {@code i}'s {@code ETag}: "" when it has none.
   *
   * @throws CodecException if its bytes are not UTF-8
   */
  public String etag(int i) {
    return utf8(columns.getEtags(), etagStarts, i, "ETag");
  }

  /**
   * Key {@code i} as {@link KeyRowView#BASIC} shows it: the fields above, with the replication
   * config left absent when empty and the {@code ETag} metadata entry only when non-empty.
   */
  public KeyInfo keyInfo(int i) {
    KeyInfo.Builder b = KeyInfo.newBuilder()
        .setKeyName(name(i))
        .setDataSize(dataSize(i))
        .setCreationTime(creationTime(i))
        .setModificationTime(modificationTime(i))
        .setOwner(owner(i));
    ReplicationConfig replication = replicationConfig(i);
    if (!replication.equals(ReplicationConfig.getDefaultInstance())) {
      b.setReplicationConfig(replication);
    }
    String etag = etag(i);
    if (!etag.isEmpty()) {
      b.putMetadata("ETag", etag);
    }
    return b.build();
  }

  /** Every key, in order, as {@link #keyInfo}. */
  public List<KeyInfo> keyInfos() {
    List<KeyInfo> out = new ArrayList<>(size());
    for (int i = 0; i < size(); i++) {
      out.add(keyInfo(i));
    }
    return out;
  }

  /** Where each value starts in {@code bytes}, with the end of the last one appended. */
  private static int[] starts(List<Integer> lengths, ByteString bytes, String column) {
    int[] starts = new int[lengths.size() + 1];
    long at = 0;
    for (int i = 0; i < lengths.size(); i++) {
      starts[i] = (int) at;
      at += Integer.toUnsignedLong(lengths.get(i));
      check(at <= bytes.size(), column + " shorter than its lengths");
    }
    check(at == bytes.size(), column + " longer than its lengths");
    starts[lengths.size()] = (int) at;
    return starts;
  }

  private static String utf8(ByteString bytes, int[] starts, int i, String what) {
    ByteString value = bytes.substring(starts[i], starts[i + 1]);
    if (!value.isValidUtf8()) {
      throw new CodecException("Not valid KeyColumns: key " + i + "'s " + what + " is not UTF-8");
    }
    return value.toStringUtf8();
  }

  private static void check(boolean ok, String column) {
    if (!ok) {
      throw new CodecException("Not valid KeyColumns: " + column + " does not match the keys");
    }
  }
}
