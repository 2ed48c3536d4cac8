package io.sediment.om;

import io.sediment.om.core.FileTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The directories next to a store's directory {@code D} while its files are replaced by a copy,
 * and the recovery that finishes (or undoes) a replacement a crash interrupted.
 *
 * <ul>
 *   <li>{@code D.incoming}: a copy being written; incomplete until renamed to {@code D.ready}.
 *   <li>{@code D.ready}: a complete, checked copy about to replace {@code D}.
 *   <li>{@code D.replaced}: the store's old files, moved aside; deleted once the copy is open.
 *   <li>{@code D.outgoing-<uuid>}: a checkpoint being sent to another replica.
 * </ul>
 *
 * <p>The replacement is two atomic renames ({@code D} to {@code D.replaced}, then {@code D.ready}
 * to {@code D}), so at every instant either {@code D} holds a whole store or, between the renames,
 * {@code D.ready} and {@code D.replaced} both do. Stateless.
 */
final class ReplacementDirs {

  private static final Logger LOG = LoggerFactory.getLogger(ReplacementDirs.class);

  private ReplacementDirs() {
  }

  static Path incoming(Path dir) {
    return sibling(dir, ".incoming");
  }

  static Path ready(Path dir) {
    return sibling(dir, ".ready");
  }

  static Path replaced(Path dir) {
    return sibling(dir, ".replaced");
  }

  static Path newOutgoing(Path dir) {
    return sibling(dir, ".outgoing-" + UUID.randomUUID());
  }

  private static Path sibling(Path dir, String suffix) {
    Path abs = dir.toAbsolutePath().normalize();
    return abs.resolveSibling(abs.getFileName() + suffix);
  }

  /**
   * Before {@code dir} is opened: finishes a replacement interrupted between its renames (the
   * checked copy becomes the store), or, if the copy is gone, puts the old files back; then removes
   * what a finished or abandoned replacement left: the old files, an incomplete or unused copy,
   * checkpoints that were being sent.
   */
  static void recover(Path dir) {
    Path ready = ready(dir);
    Path replaced = replaced(dir);
    if (!Files.exists(dir)) {
      if (Files.isDirectory(ready)) {
        LOG.warn("Finishing an interrupted store replacement: {} becomes {}", ready, dir);
        FileTrees.rename(ready, dir);
      } else if (Files.isDirectory(replaced)) {
        LOG.warn("Undoing an interrupted store replacement: {} goes back to {}", replaced, dir);
        FileTrees.rename(replaced, dir);
      }
    }
    if (!Files.exists(dir)) {
      return;
    }
    for (Path leftover : new Path[] {replaced, ready, incoming(dir)}) {
      if (Files.exists(leftover)) {
        LOG.info("Removing {}, left by an earlier store replacement", leftover);
        FileTrees.delete(leftover);
      }
    }
    Path abs = dir.toAbsolutePath().normalize();
    String outgoing = abs.getFileName() + ".outgoing-";
    try (Stream<Path> siblings = Files.list(abs.getParent())) {
      for (Path p : (Iterable<Path>) siblings::iterator) {
        if (p.getFileName().toString().startsWith(outgoing)) {
          FileTrees.delete(p);
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot list " + abs.getParent(), e);
    }
  }
}
