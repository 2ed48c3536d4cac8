package io.sediment.db.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Damage done to a store's files on purpose, and fingerprints to prove a refused open changed none. */
public final class StoreFiles {

  private StoreFiles() {
  }

  /** Name → SHA-256 of every regular file directly in {@code dir} that {@code include} accepts. */
  public static Map<String, String> fingerprint(Path dir, Predicate<String> include) {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String name = p.getFileName().toString();
        if (include.test(name)) {
          MessageDigest md = MessageDigest.getInstance("SHA-256");
          out.put(name, HexFormat.of().formatHex(md.digest(Files.readAllBytes(p))));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  /** Every file directly in {@code dir}, RocksDB's info logs included. */
  public static Map<String, String> fingerprint(Path dir) {
    return fingerprint(dir, name -> true);
  }

  /** Inverts one bit of the byte at {@code offset}. */
  public static void flipByte(Path file, long offset) throws IOException {
    byte[] b = Files.readAllBytes(file);
    b[(int) offset] ^= 0x40;
    Files.write(file, b);
  }

  /** Cuts {@code file} to {@code size} bytes. */
  public static void truncate(Path file, long size) throws IOException {
    try (var ch = java.nio.channels.FileChannel.open(file,
        java.nio.file.StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
  }

  /** The files directly in {@code dir} whose names end with {@code suffix}, sorted. */
  public static List<Path> withSuffix(Path dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  /** The largest file directly in {@code dir} whose name ends with {@code suffix}. */
  public static Path largest(Path dir, String suffix) throws IOException {
    Path best = null;
    for (Path p : withSuffix(dir, suffix)) {
      if (best == null || Files.size(p) > Files.size(best)) {
        best = p;
      }
    }
    if (best == null) {
      throw new IllegalStateException("no *" + suffix + " in " + dir);
    }
    return best;
  }
}
