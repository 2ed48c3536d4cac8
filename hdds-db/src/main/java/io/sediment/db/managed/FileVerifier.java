package io.sediment.db.managed;

import io.sediment.db.FileCheck;
import io.sediment.db.WalReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;

/**
 * Checks the files of a store against what its MANIFEST lists: each live SST is present, of the
 * recorded size, and passes RocksDB's own block checksum verification; each write-ahead log reads
 * through ({@link WalScanner}); SSTs the MANIFEST does not list are reported. Reads only.
 */
final class FileVerifier {

  private FileVerifier() {
  }

  /** Checks the live SSTs {@code live} lists, the unreferenced SSTs and the logs in {@code dir}. */
  static List<FileCheck> verify(Path dir, List<LiveFileMetaData> live) throws IOException {
    List<FileCheck> out = new ArrayList<>();
    Set<String> listed = new HashSet<>();
    for (LiveFileMetaData f : live) {
      String name = f.fileName().startsWith("/") ? f.fileName().substring(1) : f.fileName();
      listed.add(name);
      out.add(checkSst(dir.resolve(name),
          new String(f.columnFamilyName(), StandardCharsets.UTF_8), f.size()));
    }
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.sorted().toList()) {
        String name = p.getFileName().toString();
        if (name.endsWith(".sst") && !listed.contains(name)) {
          out.add(new FileCheck("unreferenced", name, "", Files.size(p), true,
              "not listed in the MANIFEST (a leftover RocksDB deletes at its next open)"));
        }
      }
    }
    out.addAll(verifyLogs(dir));
    return out;
  }

  /** Checks every SST in {@code dir} without a MANIFEST to say which are live or how large. */
  static List<FileCheck> verifyUnopened(Path dir) throws IOException {
    List<FileCheck> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.sorted().toList()) {
        if (p.getFileName().toString().endsWith(".sst")) {
          out.add(checkSst(p, "", -1));
        }
      }
    }
    out.addAll(verifyLogs(dir));
    return out;
  }

  private static List<FileCheck> verifyLogs(Path dir) throws IOException {
    List<FileCheck> out = new ArrayList<>();
    for (Path log : WalScanner.logFiles(dir)) {
      WalReport r = WalScanner.scan(log);
      out.add(new FileCheck("wal", log.getFileName().toString(), "", r.bytes(), !r.damaged(),
          r.describe()));
    }
    return out;
  }

  private static FileCheck checkSst(Path file, String table, long expectedBytes)
      throws IOException {
    String name = file.getFileName().toString();
    if (!Files.exists(file)) {
      return new FileCheck("sst", name, table, -1, false, "missing: the MANIFEST lists it");
    }
    long size = Files.size(file);
    if (expectedBytes >= 0 && size != expectedBytes) {
      return new FileCheck("sst", name, table, size, false, "size " + size
          + " bytes, the MANIFEST records " + expectedBytes);
    }
    try (Options options = new Options();
         SstFileReader reader = new SstFileReader(options)) {
      reader.open(file.toString());
      reader.verifyChecksum();
      long entries = reader.getTableProperties().getNumEntries();
      return new FileCheck("sst", name, table, size, true, entries + " entries, checksums match");
    } catch (RocksDBException e) {
      return new FileCheck("sst", name, table, size, false, e.getMessage());
    }
  }
}
