package io.sediment.om.grpc;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one directory under which {@code AdminService.CreateCheckpoint} writes. A requested path is
 * taken relative to the root, or, if absolute, must lie inside it once normalized; the result is
 * always a new directory strictly below the root's real path, reached without leaving the root
 * through a symbolic link. The root is created owner-only (0700) when absent, and every
 * checkpoint directory is made owner-only after it is written.
 *
 * <p>What the checks cannot stop: a process running as the server's user that swaps a directory
 * inside the root for a link between the check and the write. The root being owner-only keeps
 * everyone else out. Immutable and thread-safe.
 */
public final class CheckpointRoot {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointRoot.class);
  private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString(
      "rwx------");
  private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString(
      "rw-------");
  private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews()
      .contains("posix");

  /** As configured, absolute and normalized. */
  private final Path configured;
  /** {@link #configured} with every link resolved. */
  private final Path real;

  private CheckpointRoot(Path configured, Path real) {
    this.configured = configured;
    this.real = real;
  }

  /**
   * The root at {@code dir}, created (with any missing parents) owner-only when absent. An
   * existing root keeps its permissions; a warning is logged if others may use it.
   *
   * @throws IOException if it cannot be created or is not a directory
   */
  public static CheckpointRoot open(Path dir) throws IOException {
    Path configured = Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize();
    if (!Files.exists(configured)) {
      if (POSIX) {
        FileAttribute<Set<PosixFilePermission>> ownerOnly =
            PosixFilePermissions.asFileAttribute(OWNER_DIR);
        Files.createDirectories(configured, ownerOnly);
        // The umask may have narrowed the mode asked for at creation: set it outright.
        Files.setPosixFilePermissions(configured, OWNER_DIR);
      } else {
        Files.createDirectories(configured);
      }
    }
    if (!Files.isDirectory(configured)) {
      throw new IOException("The checkpoint root " + configured + " is not a directory");
    }
    if (POSIX) {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(configured);
      if (!OWNER_DIR.containsAll(perms)) {
        LOG.warn("The checkpoint root {} is {}: other users may read the checkpoints in it "
            + "(chmod 700 it)", configured, PosixFilePermissions.toString(perms));
      }
    }
    return new CheckpointRoot(configured, configured.toRealPath());
  }

  /** The root's real path: where checkpoints are written. */
  public Path dir() {
    return real;
  }

  /**
   * The new checkpoint directory {@code requested} names: relative to the root, or absolute and
   * inside it (as configured or as its real path). Nothing is created.
   *
   * @return an absolute path strictly below {@link #dir()} whose parent is {@link #dir()} or an
   *     existing directory inside it, reached without leaving the root
   * @throws StatusRuntimeException INVALID_ARGUMENT for a path that is empty, not a path, the root
   *     itself, outside the root, too long ({@link CheckpointPaths#tooLong}), or leading out of it
   *     through a symbolic link; ALREADY_EXISTS if something (even a dangling link) has the name;
   *     FAILED_PRECONDITION if its parent does not exist or is not a directory
   */
  Path resolve(String requested) {
    Path asked;
    try {
      asked = Path.of(requested);
    } catch (InvalidPathException e) {
      throw invalid("Checkpoint directory '" + requested + "' is not a valid path");
    }
    Path inside = relativeToRoot(asked);
    if (requested.isEmpty() || inside == null || inside.toString().isEmpty()) {
      throw invalid("Checkpoint directory '" + requested + "' is not inside the checkpoint root "
          + real + ": give a new directory relative to it, or an absolute path inside it");
    }
    String tooLong = CheckpointPaths.tooLong(real.resolve(inside));
    if (tooLong != null) {
      throw invalid("Checkpoint directory is not a usable path: " + tooLong);
    }
    // Walk the existing parents one by one: each must still be inside the root once its links
    // are resolved, so that no link (however deep) takes the write elsewhere.
    Path parent = real;
    for (int i = 0; i < inside.getNameCount() - 1; i++) {
      Path next = parent.resolve(inside.getName(i));
      if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
        throw noParent(real.resolve(inside), next);
      }
      Path nextReal = realPath(next, requested);
      if (!nextReal.startsWith(real)) {
        throw invalid("Checkpoint directory '" + requested + "' leads out of the checkpoint root "
            + real + " through the symbolic link " + next);
      }
      if (!Files.isDirectory(nextReal)) {
        throw noParent(real.resolve(inside), next);
      }
      parent = nextReal;
    }
    Path dir = parent.resolve(inside.getFileName());
    if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw Status.ALREADY_EXISTS.withDescription("Checkpoint directory " + dir
          + " already exists: name a new one").asRuntimeException();
    }
    return dir;
  }

  /**
   * {@code asked} relative to the root, normalized; {@code null} if it is outside the root or
   * climbs out of it ({@code ..}).
   */
  private Path relativeToRoot(Path asked) {
    Path inside;
    if (asked.isAbsolute()) {
      Path n = asked.normalize();
      if (n.startsWith(real)) {
        inside = real.relativize(n);
      } else if (n.startsWith(configured)) {
        inside = configured.relativize(n);
      } else {
        return null;
      }
    } else {
      inside = asked.normalize();
    }
    return !inside.toString().isEmpty() && inside.startsWith("..") ? null : inside;
  }

  private static Path realPath(Path p, String requested) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      // A dangling link, or a loop: it leads nowhere inside the root.
      throw invalid("Checkpoint directory '" + requested + "' passes through " + p
          + ", which does not lead to a directory inside the checkpoint root: " + e);
    }
  }

  /**
   * Makes a written checkpoint readable by the server's user only: the directory 0700 (enough to
   * keep everyone else out of every file in it) and the files the checkpoint has of its own 0600.
   * Files hard-linked from the live store (its SSTs) keep their mode: they are the live store's
   * files too, and changing their mode here would change the store's.
   */
  static void restrict(Path checkpoint) throws IOException {
    if (!POSIX) {
      return;
    }
    Files.setPosixFilePermissions(checkpoint, OWNER_DIR);
    try (Stream<Path> files = Files.list(checkpoint)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) && linkCount(f) == 1) {
          Files.setPosixFilePermissions(f, OWNER_FILE);
        }
      }
    }
  }

  /** The number of hard links to {@code f}; 2 (shared, so left alone) where it cannot be read. */
  private static int linkCount(Path f) throws IOException {
    try {
      return ((Number) Files.getAttribute(f, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).intValue();
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return 2;
    }
  }

  private static StatusRuntimeException noParent(Path dir, Path parent) {
    return Status.FAILED_PRECONDITION.withDescription("The parent of checkpoint directory " + dir
        + ", " + parent + ", is not an existing directory on the server's machine")
        .asRuntimeException();
  }

  private static StatusRuntimeException invalid(String message) {
    return Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException();
  }

  @Override
  public String toString() {
    return real.toString();
  }
}
