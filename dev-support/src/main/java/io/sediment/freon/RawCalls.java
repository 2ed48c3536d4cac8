package io.sediment.freon;

import io.sediment.bench.raw.RawTables;
import io.sediment.bench.raw.RawTables.Mutation;
import io.sediment.om.core.OmKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Floor (b): each operation as plain rocksdbjni work on the same store: a lookup is one get of
 * the key's keyTable row; a page is one bounded iterator, one seek and 1,000 rows read (keyTable
 * for ListObjectsV2, fileTable for ListStatus); a create is two synced WriteBatches (the open row;
 * then its delete and the keyTable row), a delete one (the keyTable row's delete and a
 * deletedTable row) and a batch delete one holding those two mutations for each of its keys.
 * Writes come from as many threads as the service had clients, so RocksDB groups them. The
 * layer's own rows (counters, ids) are not written: they are part of what is measured.
 *
 * <p>Writes go to names under the volume {@value #SCRATCH_VOLUME}, which the service never reads
 * (the rows are real rows of real sizes, so the work is the same); {@link #clear()} removes them.
 * A page shorter than 1,000 rows fails the operation (the floor must do the same work).
 * Thread-safe.
 */
final class RawCalls implements OpExecutor {

  static final String SCRATCH_VOLUME = "~freon-floor";
  static final List<String> TABLES =
      List.of("keyTable", "openKeyTable", "deletedTable", "fileTable");

  private final RawTables raw;
  private final Names names;
  private final String fsoChildPrefix;
  private final byte[] keyUpper;
  private final byte[] fileUpper;
  private final byte[] row;

  /**
   * @param fsoVolumeId object id of the volume holding the FSO bucket
   * @param fsoBucketId object id of the FSO bucket (its root's id)
   * @param row a real keyTable row, the value every raw write puts
   */
  RawCalls(RawTables raw, Names names, long fsoVolumeId, long fsoBucketId, byte[] row) {
    this.raw = raw;
    this.names = names;
    this.fsoChildPrefix = OmKeys.childPrefix(fsoVolumeId, fsoBucketId, fsoBucketId);
    this.keyUpper = successor(OmKeys.utf8(OmKeys.bucketPrefix(names.volume(), names.bucket())));
    this.fileUpper = successor(OmKeys.utf8(fsoChildPrefix));
    this.row = row.clone();
  }

  private static byte[] successor(byte[] prefix) {
    byte[] s = Arrays.copyOf(prefix, prefix.length);
    s[s.length - 1]++;
    return s;
  }

  @Override
  public void run(Op op) {
    switch (op.type()) {
      case CREATE: {
        byte[] open = OmKeys.utf8(OmKeys.openKey(SCRATCH_VOLUME, names.bucket(), op.name(), 1));
        raw.writeSync(List.of(new Mutation("openKeyTable", open, row)));
        raw.writeSync(List.of(new Mutation("openKeyTable", open, null),
            new Mutation("keyTable", scratchKey(op.name()), row)));
        return;
      }
      case LOOKUP:
        if (raw.get("keyTable", OmKeys.utf8(
            OmKeys.objectKey(names.volume(), names.bucket(), op.name()))) == null) {
          throw new IllegalStateException("raw get found no row");
        }
        return;
      case LIST:
      case LIST_DELIMITER: {
        String from = op.name().isEmpty()
            ? OmKeys.bucketPrefix(names.volume(), names.bucket())
            : OmKeys.objectKey(names.volume(), names.bucket(), op.name());
        expectPage(raw.scan("keyTable", OmKeys.utf8(from), !op.name().isEmpty(), keyUpper,
            KeySpace.PAGE));
        return;
      }
      case LIST_STATUS: {
        String from = fsoChildPrefix + op.name();
        expectPage(raw.scan("fileTable", OmKeys.utf8(from), !op.name().isEmpty(), fileUpper,
            KeySpace.PAGE));
        return;
      }
      case DELETE:
        raw.writeSync(deletion(op.name(), new ArrayList<>(2)));
        return;
      case DELETE_BATCH: {
        List<Mutation> batch = new ArrayList<>(2 * op.batch().size());
        for (String name : op.batch()) {
          deletion(name, batch);
        }
        raw.writeSync(batch);
        return;
      }
      default:
        throw new AssertionError(op.type());
    }
  }

  /** Adds a key's deletion to {@code batch}: its row's delete and its deleted row; returns it. */
  private List<Mutation> deletion(String name, List<Mutation> batch) {
    batch.add(new Mutation("keyTable", scratchKey(name), null));
    batch.add(new Mutation("deletedTable", OmKeys.utf8(
        OmKeys.deletedKey(SCRATCH_VOLUME, names.bucket(), name, 1)), row));
    return batch;
  }

  private byte[] scratchKey(String name) {
    return OmKeys.utf8(OmKeys.objectKey(SCRATCH_VOLUME, names.bucket(), name));
  }

  private static void expectPage(int rows) {
    if (rows != KeySpace.PAGE) {
      throw new IllegalStateException("raw scan read " + rows + " rows, not " + KeySpace.PAGE);
    }
  }

  /** Removes every row the floor wrote (one range delete per table written). */
  void clear() {
    byte[] from = OmKeys.utf8(OmKeys.volumePrefix(SCRATCH_VOLUME));
    byte[] to = successor(from);
    for (String table : List.of("keyTable", "openKeyTable", "deletedTable")) {
      raw.deleteRange(table, from, to);
    }
  }
}
