package io.sediment.db.managed;

import io.sediment.db.WalReport;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Reads RocksDB write-ahead log files ({@code NNNNNN.log}) record by record, checking each
 * physical record's CRC32C, to say <em>where</em> a log is damaged and how much lies after the
 * damage. RocksDB itself only says "checksum mismatch"; this names the file and the byte offset.
 *
 * <p>The format: the file is a sequence of 32 KiB blocks; a block holds physical records, each a
 * header (masked CRC32C, 2-byte little-endian length, 1-byte type; 4 more bytes of log number for
 * the recyclable types) and a payload; a record that does not fit in a block is split into
 * FIRST/MIDDLE/LAST fragments; a block's last 6 bytes or fewer are zero padding. A record cut off
 * by the end of the file is a <em>torn tail</em> (a crash in the middle of the last write), which
 * is not damage; a zero-filled remainder (preallocated space) is not damage either.
 *
 * <p>Read-only: it never writes or locks a file. Stateless and thread-safe.
 */
public final class WalScanner {

  static final int BLOCK = 32 * 1024;
  private static final int HEADER = 7;
  private static final int RECYCLABLE_HEADER = 11;
  private static final int MASK_DELTA = 0xa282ead8;

  private static final int ZERO = 0;
  private static final int FULL = 1;
  private static final int FIRST = 2;
  private static final int MIDDLE = 3;
  private static final int LAST = 4;
  private static final int RECYCLABLE_FULL = 5;
  private static final int RECYCLABLE_LAST = 8;

  private WalScanner() {
  }

  /** The write-ahead log files in {@code dir}, oldest first (by file number). */
  public static List<Path> logFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().matches("\\d+\\.log"))
          .sorted((a, b) -> Long.compare(number(a), number(b)))
          .toList();
    }
  }

  /** Scans every write-ahead log file in {@code dir}, oldest first. */
  public static List<WalReport> scanDirectory(Path dir) throws IOException {
    List<WalReport> out = new ArrayList<>();
    for (Path log : logFiles(dir)) {
      out.add(scan(log));
    }
    return out;
  }

  private static long number(Path log) {
    String n = log.getFileName().toString();
    return Long.parseLong(n.substring(0, n.length() - ".log".length()));
  }

  /** Scans one write-ahead log file. */
  public static WalReport scan(Path file) throws IOException {
    ByteBuffer buf;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size > Integer.MAX_VALUE) {
        throw new IOException(file + ": too large to scan (" + size + " bytes)");
      }
      buf = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
      while (buf.hasRemaining() && ch.read(buf) >= 0) {
        // read it all
      }
      buf.flip();
    }
    return scan(file, buf);
  }

  private static WalReport scan(Path file, ByteBuffer buf) {
    int size = buf.limit();
    int pos = 0;
    long records = 0;
    long damageOffset = -1;
    String damage = null;
    long afterDamage = 0;
    long tornTail = 0;
    boolean inFragmented = false;
    int recordStart = 0;
    while (pos < size) {
      int blockLeft = BLOCK - pos % BLOCK;
      if (blockLeft < HEADER) {
        pos += blockLeft;
        continue;
      }
      if (size - pos < HEADER) {
        if (!allZero(buf, pos, size)) {
          tornTail = size - pos;
        }
        break;
      }
      int stored = buf.getInt(pos);
      int length = buf.getShort(pos + 4) & 0xffff;
      int type = buf.get(pos + 6) & 0xff;
      if (type == ZERO && length == 0 && stored == 0) {
        if (allZero(buf, pos, size)) {
          break; // preallocated space: the log ends here
        }
        pos += blockLeft; // an empty record the writer padded with: skip the block's rest
        continue;
      }
      int header = type >= RECYCLABLE_FULL && type <= RECYCLABLE_LAST ? RECYCLABLE_HEADER : HEADER;
      String problem = null;
      if (header + length > blockLeft) {
        problem = "a record longer than its block";
      } else if (pos + header + length > size) {
        tornTail = size - pos;
        break;
      } else if (!checksumMatches(buf, pos, header, length, stored)) {
        problem = "a checksum mismatch";
      }
      if (problem != null) {
        if (damageOffset < 0) {
          damageOffset = pos;
          damage = problem;
        }
        inFragmented = false;
        pos += blockLeft; // as RocksDB does: the rest of a damaged block cannot be trusted
        continue;
      }
      int logical = type >= RECYCLABLE_FULL ? type - RECYCLABLE_FULL + FULL : type;
      switch (logical) {
        case FULL -> {
          inFragmented = false;
          records++;
          if (damageOffset >= 0 && pos > damageOffset) {
            afterDamage++;
          }
        }
        case FIRST -> {
          inFragmented = true;
          recordStart = pos;
        }
        case MIDDLE -> {
          // part of the record begun by FIRST
        }
        case LAST -> {
          if (inFragmented) {
            records++;
            if (damageOffset >= 0 && recordStart > damageOffset) {
              afterDamage++;
            }
          }
          inFragmented = false;
        }
        default -> inFragmented = false; // metadata records (compression type, timestamps...)
      }
      pos += header + length;
    }
    return new WalReport(file, size, records, damageOffset, damage, afterDamage, tornTail);
  }

  private static boolean checksumMatches(ByteBuffer buf, int pos, int header, int length,
      int stored) {
    CRC32C crc = new CRC32C();
    // The checksum covers the type byte, the log number of a recyclable record, and the payload.
    crc.update(buf.array(), pos + 6, 1 + (header - HEADER) + length);
    int actual = (int) crc.getValue();
    int masked = ((actual >>> 15) | (actual << 17)) + MASK_DELTA;
    return masked == stored;
  }

  private static boolean allZero(ByteBuffer buf, int from, int to) {
    for (int i = from; i < to; i++) {
      if (buf.get(i) != 0) {
        return false;
      }
    }
    return true;
  }
}
