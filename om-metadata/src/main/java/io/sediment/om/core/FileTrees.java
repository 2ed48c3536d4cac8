package io.sediment.om.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** File-tree steps of whole-store copies: delete, link, list, rename durably. Stateless. */
public final class FileTrees {

  private FileTrees() {
  }

  /** Deletes {@code path} and everything under it; nothing if it does not exist. */
  public static void delete(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + path, e);
    }
  }

  /**
   * Mirrors every regular file under {@code from} into {@code to} (created), each a hard link, or
   * a copy where the file system refuses a link. A file that disappears while this runs (a
   * leftover being removed) is skipped.
   */
  public static void linkTree(Path from, Path to) {
    if (!Files.isDirectory(from)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        try {
          if (Files.isDirectory(p)) {
            Files.createDirectories(target);
          } else {
            link(p, target);
          }
        } catch (NoSuchFileException vanished) {
          // removed under us: it was not part of the copy
        }
      }
    } catch (IOException | UncheckedIOException e) {
      throw new UncheckedIOException("Cannot link " + from + " into " + to + ": " + e.getMessage(),
          e instanceof IOException io ? io : ((UncheckedIOException) e).getCause());
    }
  }

  private static void link(Path file, Path target) throws IOException {
    try {
      Files.createLink(target, file);
    } catch (UnsupportedOperationException | FileSystemException e) {
      if (e instanceof NoSuchFileException n) {
        throw n;
      }
      Files.copy(file, target);
    }
  }

  /** The regular files under {@code dir}, as paths relative to it with '/' separators, sorted. */
  public static List<String> files(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString().replace(dir.getFileSystem().getSeparator(), "/"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + dir, e);
    }
  }

  /** Renames {@code from} to {@code to} atomically, durably (the parent directory is fsynced). */
  public static void rename(Path from, Path to) {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
      syncDirectory(to.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot rename " + from + " to " + to, e);
    }
  }

  /** fsyncs a directory so that the names created or renamed in it survive a crash. */
  public static void syncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }
}
