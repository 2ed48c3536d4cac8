package io.sediment.om.listing;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.sediment.db.codec.CodecException;
import io.sediment.om.core.StoredRows;
import io.sediment.proto.om.KeyColumns;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ReplicationConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The keys of a {@link KeyColumns} page, read by index (0 to {@link #size()} - 1, in key order).
 * The columns are decoded and checked consistent when the reader is made (one varint per key in
 * each number column, the names and ETags exactly as long as their lengths add up to, every index
 * inside its dictionary); a name or ETag is decoded to a string only when asked for. Immutable
 * and thread-safe.
 */
public final class KeyColumnsReader {

  private final KeyColumns columns;
  private final int[] nameStarts;
  private final int[] etagStarts;
  private final long[] dataSizes;
  private final long[] creationTimes;
  private final long[] modificationTimes;
  private final int[] ownerIndexes;
  private final int[] replicationIndexes;

  private KeyColumnsReader(KeyColumns columns) {
    this.columns = columns;
    int[] nameLengths = ints(columns.getNameLengths(), -1, "name_lengths");
    int n = nameLengths.length;
    dataSizes = longs(columns.getDataSizes(), n, "data_sizes");
    creationTimes = longs(columns.getCreationTimes(), n, "creation_times");
    modificationTimes = longs(columns.getModificationTimes(), n, "modification_times");
    ownerIndexes = ints(columns.getOwnerIndexes(), n, "owner_indexes");
    replicationIndexes = ints(columns.getReplicationConfigIndexes(), n,
        "replication_config_indexes");
    nameStarts = starts(nameLengths, columns.getNames(), "names");
    etagStarts = starts(ints(columns.getEtagLengths(), n, "etag_lengths"), columns.getEtags(),
        "etags");
    for (int i = 0; i < n; i++) {
      check(ownerIndexes[i] < columns.getOwnersCount(), "owner_indexes");
      check(replicationIndexes[i] < columns.getReplicationConfigsCount(),
          "replication_config_indexes");
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

  /**
   * A ListObjects page's keys, parsed: from {@code encodedColumns} when the page was read as
   * columns (not null), else from {@code encodedRows}.
   *
   * @throws CodecException if a key does not parse
   */
  static List<KeyInfo> pageKeys(List<ByteString> encodedRows, ByteString encodedColumns) {
    return encodedColumns != null ? pageColumns(encodedColumns).keyInfos()
        : StoredRows.keyInfos(encodedRows);
  }

  /**
   * A ListObjects page's columns, parsed.
   *
   * @throws IllegalStateException if the page was not read as columns ({@code null})
   */
  static KeyColumnsReader pageColumns(ByteString encodedColumns) {
    if (encodedColumns == null) {
      throw new IllegalStateException("The page was not read as columns");
    }
    return parse(encodedColumns);
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
    return dataSizes[i];
  }

  public long creationTime(int i) {
    return creationTimes[i];
  }

  public long modificationTime(int i) {
    return modificationTimes[i];
  }

  public String owner(int i) {
    return columns.getOwners(ownerIndexes[i]);
  }

  /** Key {@code i}'s replication config: the empty message when its row has none. */
  public ReplicationConfig replicationConfig(int i) {
    return columns.getReplicationConfigs(replicationIndexes[i]);
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
  private static int[] starts(int[] lengths, ByteString bytes, String column) {
    int[] starts = new int[lengths.length + 1];
    long at = 0;
    for (int i = 0; i < lengths.length; i++) {
      starts[i] = (int) at;
      at += lengths[i];
      check(at <= bytes.size(), column + " shorter than its lengths");
    }
    check(at == bytes.size(), column + " longer than its lengths");
    starts[lengths.length] = (int) at;
    return starts;
  }

  /** The varints of {@code column}: exactly {@code n} of them, or any number when n is -1. */
  private static long[] longs(ByteString column, int n, String name) {
    try {
      CodedInputStream in = column.newCodedInput();
      long[] out = new long[n >= 0 ? n : Math.max(8, column.size() / 2)];
      int count = 0;
      while (!in.isAtEnd()) {
        check(n < 0 || count < n, name);
        if (count == out.length) {
          out = Arrays.copyOf(out, count * 2);
        }
        out[count++] = in.readRawVarint64();
      }
      check(n < 0 || count == n, name);
      return count == out.length ? out : Arrays.copyOf(out, count);
    } catch (IOException e) {
      throw new CodecException("Not valid KeyColumns: " + name + ": " + e.getMessage());
    }
  }

  /** As {@link #longs}, each value a non-negative int. */
  private static int[] ints(ByteString column, int n, String name) {
    long[] values = longs(column, n, name);
    int[] out = new int[values.length];
    for (int i = 0; i < values.length; i++) {
      check(values[i] >= 0 && values[i] <= Integer.MAX_VALUE, name);
      out[i] = (int) values[i];
    }
    return out;
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
