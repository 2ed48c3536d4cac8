package io.sediment.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The damages of the corruption matrix, each done to a fresh copy of the pristine store's
 * {@code om} directory, each with the outcome that is correct for it.
 */
enum Damage {
  /** Nothing: every tool must open the store and show all of it (the reference views). */
  NONE("intact store", "no damage (the reference every other case is compared with)",
      Expect.OPEN_INTACT),
  TRUNCATED_SST("truncated SST", "largest keyTable SST %s cut to half its size", Expect.REFUSE),
  FLIPPED_SST_BLOCK("bit-flipped SST", "byte %d of keyTable SST %s (inside its first data "
      + "block) inverted", Expect.LOUD),
  DELETED_SST("deleted SST", "largest keyTable SST %s deleted", Expect.REFUSE),
  GARBLED_OPTIONS("garbled OPTIONS", "512 bytes in the middle of %s overwritten with 0xFF",
      Expect.OPEN_INTACT),
  MISSING_OPTIONS("missing OPTIONS", "every OPTIONS file deleted (%s)", Expect.OPEN_INTACT),
  MISSING_CURRENT("missing CURRENT", "CURRENT deleted (the logs, MANIFEST and SSTs kept)",
      Expect.REFUSE),
  MISSING_MANIFEST("missing MANIFEST", "%s deleted", Expect.REFUSE),
  MID_WAL_FLIP("mid-WAL flip", "byte %d of %s (%d bytes) inverted", Expect.REFUSE),
  TORN_WAL_TAIL("torn WAL tail", "last 3 bytes of %s cut off (the last write torn)",
      Expect.OPEN_TORN);

  /** What is correct for a damage. */
  enum Expect {
    /** Every tool opens and shows all the data; verify passes. */
    OPEN_INTACT,
    /** As OPEN_INTACT, except that the last write (the torn record) may be missing. */
    OPEN_TORN,
    /** Every tool refuses with exit 1 naming the damaged file, changing no data file. */
    REFUSE,
    /** verify and ldb fail naming the file; serve and recon refuse, or open and fail every read
     *  of the damaged block loudly; none shows less data as if it were whole. */
    LOUD
  }

  /** Offset of the byte flipped in an SST: inside the first data block, which starts at 0. */
  static final long SST_FLIP_OFFSET = 200;

  private final String title;
  private final String how;
  private final Expect expect;

  Damage(String title, String how, Expect expect) {
    this.title = title;
    this.how = how;
    this.expect = expect;
  }

  String title() {
    return title;
  }

  Expect expect() {
    return expect;
  }

  /** True if the damage loses data: verify must fail and no tool may show the store as whole. */
  boolean losesData() {
    return expect == Expect.REFUSE || expect == Expect.LOUD;
  }

  /** The damage done: what was done, and the file a refusal must name (null: none). */
  record Done(String description, String file) {
  }

  /**
   * Damages the store directory {@code om} (a copy of the pristine store described by
   * {@code pristine}).
   */
  Done apply(Path om, PristineStore pristine) throws IOException {
    Path sst = om.resolve(pristine.keyTableSst());
    Path wal = pristine.wal() == null ? null : om.resolve(pristine.wal());
    switch (this) {
      case NONE:
        return new Done(how, null);
      case TRUNCATED_SST:
        StoreFiles.truncate(sst, Files.size(sst) / 2);
        return new Done(how.formatted(sst.getFileName()), sst.getFileName().toString());
      case FLIPPED_SST_BLOCK:
        StoreFiles.flipByte(sst, SST_FLIP_OFFSET);
        return new Done(how.formatted(SST_FLIP_OFFSET, sst.getFileName()),
            sst.getFileName().toString());
      case DELETED_SST:
        Files.delete(sst);
        return new Done(how.formatted(sst.getFileName()), sst.getFileName().toString());
      case GARBLED_OPTIONS: {
        Path options = last(StoreFiles.withPrefix(om, "OPTIONS-"));
        long size = Files.size(options);
        StoreFiles.overwrite(options, size / 2, (int) Math.min(512, size / 2), (byte) 0xFF);
        return new Done(how.formatted(options.getFileName()), options.getFileName().toString());
      }
      case MISSING_OPTIONS: {
        List<Path> options = StoreFiles.withPrefix(om, "OPTIONS-");
        for (Path p : options) {
          Files.delete(p);
        }
        return new Done(how.formatted(String.join(", ",
            options.stream().map(p -> p.getFileName().toString()).toList())), "OPTIONS");
      }
      case MISSING_CURRENT:
        Files.delete(om.resolve("CURRENT"));
        return new Done(how, "CURRENT");
      case MISSING_MANIFEST: {
        String current = Files.readString(om.resolve("CURRENT")).strip();
        Files.delete(om.resolve(current));
        return new Done(how.formatted(current), current);
      }
      case MID_WAL_FLIP: {
        long size = Files.size(wal);
        StoreFiles.flipByte(wal, size / 2);
        return new Done(how.formatted(size / 2, wal.getFileName(), size),
            wal.getFileName().toString());
      }
      case TORN_WAL_TAIL:
        StoreFiles.truncate(wal, Files.size(wal) - 3);
        return new Done(how.formatted(wal.getFileName()), wal.getFileName().toString());
      default:
        throw new AssertionError(this);
    }
  }

  private static Path last(List<Path> paths) throws IOException {
    if (paths.isEmpty()) {
      throw new IOException("the pristine store has no such file");
    }
    return paths.get(paths.size() - 1);
  }
}
