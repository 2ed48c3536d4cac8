package io.sediment.om.listing;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.WireFormat;
import io.sediment.db.codec.CodecException;
import io.sediment.proto.om.KeyColumns;
import io.sediment.proto.om.KeyInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * One ListObjects page's keys as a {@link KeyColumns} encoding, built as the rows are read: each
 * stored {@link KeyInfo} row's basic fields (those {@link KeyRowView#BASIC} keeps) are appended
 * to the columns as bytes, without decoding a value: names and ETags as their UTF-8, sizes and
 * times as the varints stored, owners and replication configs once per distinct value. A row
 * that does not skim as a message is refused and leaves the columns as they were. Not
 * thread-safe; one page's.
 */
public final class KeyColumnsWriter {

  private static final int NAME = KeyInfo.KEY_NAME_FIELD_NUMBER;
  private static final int DATA_SIZE = KeyInfo.DATA_SIZE_FIELD_NUMBER;
  private static final int CREATION_TIME = KeyInfo.CREATION_TIME_FIELD_NUMBER;
  private static final int MODIFICATION_TIME = KeyInfo.MODIFICATION_TIME_FIELD_NUMBER;
  private static final int OWNER = KeyInfo.OWNER_FIELD_NUMBER;
  private static final int REPLICATION = KeyInfo.REPLICATION_CONFIG_FIELD_NUMBER;
  private static final int METADATA = KeyInfo.METADATA_FIELD_NUMBER;
  /** The tag of a map entry's value: field 2, length-delimited. */
  private static final int ENTRY_VALUE_TAG = 2 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;

  private final RowFields fields = new RowFields();
  private final Column names = new Column(16 * 1024);
  private final Column nameLengths = new Column(1024);
  private final Column dataSizes = new Column(4 * 1024);
  private final Column creationTimes = new Column(8 * 1024);
  private final Column modificationTimes = new Column(8 * 1024);
  private final Column ownerIndexes = new Column(1024);
  private final Column replicationIndexes = new Column(1024);
  private final Column etags = new Column(1024);
  private final Column etagLengths = new Column(1024);
  private final Dictionary owners = new Dictionary();
  private final Dictionary replications = new Dictionary();
  private int count;

  /** How many keys the columns hold. */
  public int size() {
    return count;
  }

  /**
   * Appends the key stored as {@code row} (a {@code KeyInfo} encoding, not kept).
   *
   * @throws CodecException if the row does not skim as a message; the columns are unchanged
   */
  public void add(byte[] row) {
    // Where each kept field's value lies in the row (its last occurrence): from, to; -1 if none.
    int name = -1;
    int nameEnd = 0;
    int size = -1;
    int sizeEnd = 0;
    int created = -1;
    int createdEnd = 0;
    int modified = -1;
    int modifiedEnd = 0;
    int owner = -1;
    int ownerEnd = 0;
    int replication = -1;
    int replicationEnd = 0;
    long etag = -1;
    RowFields f = fields;
    f.reset(row);
    while (f.next()) {
      int wire = f.wireType();
      if (wire == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        switch (f.field()) {
          case NAME -> {
            name = f.value();
            nameEnd = f.end();
          }
          case OWNER -> {
            owner = f.value();
            ownerEnd = f.end();
          }
          case REPLICATION -> {
            replication = f.value();
            replicationEnd = f.end();
          }
          case METADATA -> {
            if (KeyRowView.isETag(row, f.value(), f.end() - f.value())) {
              etag = etagValue(row, f.value(), f.end());
            }
          }
          default -> {
          }
        }
      } else if (wire == WireFormat.WIRETYPE_VARINT) {
        switch (f.field()) {
          case DATA_SIZE -> {
            size = f.value();
            sizeEnd = f.end();
          }
          case CREATION_TIME -> {
            created = f.value();
            createdEnd = f.end();
          }
          case MODIFICATION_TIME -> {
            modified = f.value();
            modifiedEnd = f.end();
          }
          default -> {
          }
        }
      }
    }
    names.write(row, name, nameEnd);
    nameLengths.writeVarint(name < 0 ? 0 : nameEnd - name);
    dataSizes.writeVarintOrZero(row, size, sizeEnd);
    creationTimes.writeVarintOrZero(row, created, createdEnd);
    modificationTimes.writeVarintOrZero(row, modified, modifiedEnd);
    ownerIndexes.writeVarint(owners.indexOf(row, owner, ownerEnd));
    replicationIndexes.writeVarint(replications.indexOf(row, replication, replicationEnd));
    int etagFrom = (int) (etag >> 32);
    int etagTo = (int) etag;
    etags.write(row, etagFrom, etagTo);
    etagLengths.writeVarint(etagFrom < 0 ? 0 : etagTo - etagFrom);
    count++;
  }

  /**
   * The columns of the keys added, in order, as a {@link KeyColumns} encoding (empty when none
   * were).
   */
  public ByteString finish() {
    if (count == 0) {
      return ByteString.EMPTY;
    }
    int size = names.fieldSize(KeyColumns.NAMES_FIELD_NUMBER)
        + nameLengths.fieldSize(KeyColumns.NAME_LENGTHS_FIELD_NUMBER)
        + dataSizes.fieldSize(KeyColumns.DATA_SIZES_FIELD_NUMBER)
        + creationTimes.fieldSize(KeyColumns.CREATION_TIMES_FIELD_NUMBER)
        + modificationTimes.fieldSize(KeyColumns.MODIFICATION_TIMES_FIELD_NUMBER)
        + owners.fieldsSize(KeyColumns.OWNERS_FIELD_NUMBER)
        + ownerIndexes.fieldSize(KeyColumns.OWNER_INDEXES_FIELD_NUMBER)
        + replications.fieldsSize(KeyColumns.REPLICATION_CONFIGS_FIELD_NUMBER)
        + replicationIndexes.fieldSize(KeyColumns.REPLICATION_CONFIG_INDEXES_FIELD_NUMBER)
        + etags.fieldSize(KeyColumns.ETAGS_FIELD_NUMBER)
        + etagLengths.fieldSize(KeyColumns.ETAG_LENGTHS_FIELD_NUMBER);
    Column out = new Column(size);
    names.writeField(out, KeyColumns.NAMES_FIELD_NUMBER);
    nameLengths.writeField(out, KeyColumns.NAME_LENGTHS_FIELD_NUMBER);
    dataSizes.writeField(out, KeyColumns.DATA_SIZES_FIELD_NUMBER);
    creationTimes.writeField(out, KeyColumns.CREATION_TIMES_FIELD_NUMBER);
    modificationTimes.writeField(out, KeyColumns.MODIFICATION_TIMES_FIELD_NUMBER);
    owners.writeFields(out, KeyColumns.OWNERS_FIELD_NUMBER);
    ownerIndexes.writeField(out, KeyColumns.OWNER_INDEXES_FIELD_NUMBER);
    replications.writeFields(out, KeyColumns.REPLICATION_CONFIGS_FIELD_NUMBER);
    replicationIndexes.writeField(out, KeyColumns.REPLICATION_CONFIG_INDEXES_FIELD_NUMBER);
    etags.writeField(out, KeyColumns.ETAGS_FIELD_NUMBER);
    etagLengths.writeField(out, KeyColumns.ETAG_LENGTHS_FIELD_NUMBER);
    return UnsafeByteOperations.unsafeWrap(out.buf, 0, out.size);
  }

  /**
   * Where the value of the ETag map entry {@code row[from, to)} lies (its last value field), as
   * {@code from << 32 | to}; -1 when the entry has none.
   */
  private static long etagValue(byte[] row, int from, int to) {
    byte[] key = KeyRowView.ETAG_KEY;
    int value = from + key.length;
    // As protobuf writes an entry: the key, then the value with a one-byte length, nothing after.
    if (value + 2 <= to && row[value] == ENTRY_VALUE_TAG && row[value + 1] >= 0
        && value + 2 + row[value + 1] == to
        && Arrays.equals(row, from, value, key, 0, key.length)) {
      return (long) (value + 2) << 32 | to;
    }
    long found = -1;
    try {
      CodedInputStream in = CodedInputStream.newInstance(row, from, to - from);
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (tag == ENTRY_VALUE_TAG) {
          int length = in.readRawVarint32();
          long start = from + in.getTotalBytesRead();
          in.skipRawBytes(length);
          found = start << 32 | (start + length);
        } else {
          in.skipField(tag);
        }
      }
    } catch (IOException e) {
      throw RowFields.invalid(e.getMessage());
    }
    return found;
  }

  /** A growing run of bytes: one column's encoding, without its tag and length. */
  private static final class Column {
    private byte[] buf;
    private int size;

    Column(int capacity) {
      buf = new byte[capacity];
    }

    /** Appends {@code src[from, to)}; nothing when {@code from < 0}. */
    void write(byte[] src, int from, int to) {
      if (from < 0) {
        return;
      }
      int n = to - from;
      ensure(n);
      System.arraycopy(src, from, buf, size, n);
      size += n;
    }

    /** Appends {@code v} (at least 0) as a varint. */
    void writeVarint(int v) {
      ensure(5);
      while ((v & ~0x7f) != 0) {
        buf[size++] = (byte) (v & 0x7f | 0x80);
        v >>>= 7;
      }
      buf[size++] = (byte) v;
    }

    /** Appends the stored varint {@code row[from, to)}, or a varint 0 when {@code from < 0}. */
    void writeVarintOrZero(byte[] row, int from, int to) {
      if (from < 0) {
        ensure(1);
        buf[size++] = 0;
      } else {
        write(row, from, to);
      }
    }

    private void ensure(int n) {
      if (buf.length - size < n) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
      }
    }

    /** The bytes of this column as length-delimited field {@code number}; 0 when empty. */
    int fieldSize(int number) {
      return size == 0 ? 0 : tagSize(number) + varintSize(size) + size;
    }

    /** Appends this column to {@code out} as length-delimited field {@code number}, if any. */
    void writeField(Column out, int number) {
      if (size > 0) {
        out.writeVarint(number << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeVarint(size);
        out.write(buf, 0, size);
      }
    }
  }

  /**
   * The distinct values of one field, in the order first met, each given its index once; the
   * last value found is tried first.
   */
  private static final class Dictionary {
    private final Column values = new Column(256);
    private final Map<ByteBuffer, Integer> index = new HashMap<>();
    private int[] ends = new int[8];
    private int count;
    private int last = -1;

    /**
     * The index of the value {@code row[from, to)} (the empty value when {@code from < 0}), added
     * if new.
     */
    int indexOf(byte[] row, int from, int to) {
      if (from < 0) {
        from = 0;
        to = 0;
      }
      if (last >= 0 && equalsValue(last, row, from, to)) {
        return last;
      }
      Integer known = index.get(ByteBuffer.wrap(row, from, to - from));
      if (known == null) {
        known = count;
        values.write(row, from, to);
        if (count == ends.length) {
          ends = Arrays.copyOf(ends, count * 2);
        }
        ends[count++] = values.size;
        index.put(ByteBuffer.wrap(Arrays.copyOfRange(row, from, to)), known);
      }
      last = known;
      return known;
    }

    private boolean equalsValue(int i, byte[] row, int from, int to) {
      int start = i == 0 ? 0 : ends[i - 1];
      return Arrays.equals(values.buf, start, ends[i], row, from, to);
    }

    /** The values as repeated length-delimited field {@code number}. */
    int fieldsSize(int number) {
      int size = 0;
      for (int i = 0; i < count; i++) {
        int length = ends[i] - (i == 0 ? 0 : ends[i - 1]);
        size += tagSize(number) + varintSize(length) + length;
      }
      return size;
    }

    void writeFields(Column out, int number) {
      for (int i = 0; i < count; i++) {
        int start = i == 0 ? 0 : ends[i - 1];
        out.writeVarint(number << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeVarint(ends[i] - start);
        out.write(values.buf, start, ends[i]);
      }
    }
  }

  private static int tagSize(int number) {
    return varintSize(number << 3);
  }

  private static int varintSize(int v) {
    int n = 1;
    while ((v & ~0x7f) != 0) {
      n++;
      v >>>= 7;
    }
    return n;
  }
}
