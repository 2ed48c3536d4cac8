package io.sediment.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** File work on stopped stores: copying, hashing, and the damage the corruption matrix does. */
final class StoreFiles {

  private StoreFiles() {
  }

  /** Copies the tree {@code from} to {@code to} (which must not exist), file contents only. */
  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  /** Deletes {@code dir} and everything below it; never throws (reports what it could not). */
  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try {
      Files.walkFileTree(dir, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.deleteIfExists(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException exc) {
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
          Files.deleteIfExists(d);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      System.err.println("faults: could not delete " + dir + ": " + e);
    }
  }

  /**
   * SHA-256 of every regular file directly in {@code dir} except RocksDB's info logs
   * ({@code LOG}, {@code LOG.old.*}), which a refused open may rotate: name to hash.
   */
  static Map<String, String> dataFingerprint(Path dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (Path p : files(dir)) {
      String name = p.getFileName().toString();
      if (!name.startsWith("LOG")) {
        out.put(name, sha256(p));
      }
    }
    return out;
  }

  /** The regular files directly in {@code dir}, by name. */
  static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isRegularFile).sorted().toList();
    }
  }

  /** Files directly in {@code dir} whose name ends with {@code suffix}, by name. */
  static List<Path> withSuffix(Path dir, String suffix) throws IOException {
    List<Path> out = new ArrayList<>();
    for (Path p : files(dir)) {
      if (p.getFileName().toString().endsWith(suffix)) {
        out.add(p);
      }
    }
    return out;
  }

  /** Files directly in {@code dir} whose name starts with {@code prefix}, by name. */
  static List<Path> withPrefix(Path dir, String prefix) throws IOException {
    List<Path> out = new ArrayList<>();
    for (Path p : files(dir)) {
      if (p.getFileName().toString().startsWith(prefix)) {
        out.add(p);
      }
    }
    return out;
  }

  /** The last (newest, by file number) non-empty write-ahead log in {@code dir}, or null. */
  static Path newestLog(Path dir) throws IOException {
    return withSuffix(dir, ".log").stream().filter(p -> size(p) > 0)
        .max(Comparator.comparing(p -> p.getFileName().toString())).orElse(null);
  }

  static long size(Path p) {
    try {
      return Files.size(p);
    } catch (NoSuchFileException e) {
      return -1;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Inverts every bit of the byte at {@code offset}. */
  static void flipByte(Path file, long offset) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(~b & 0xFF);
    }
  }

  /** Overwrites {@code length} bytes from {@code offset} with {@code fill}. */
  static void overwrite(Path file, long offset, int length, byte fill) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      byte[] bytes = new byte[length];
      java.util.Arrays.fill(bytes, fill);
      f.write(bytes);
    }
  }

  static void truncate(Path file, long size) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(size);
    }
  }

  private static String sha256(Path p) throws IOException {
    try (InputStream in = Files.newInputStream(p)) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[64 << 10];
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
