package io.sediment.db.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A small tmpfs mounted on a directory for one test, so the test can fill a file system for real.
 * Mounting needs Linux and root (or CAP_SYS_ADMIN), which CI containers often withhold: where it
 * is not permitted, {@link #mount} aborts the test as skipped (a JUnit assumption) with a message
 * saying so. {@link #close()} unmounts.
 */
public final class TmpfsMount implements AutoCloseable {

  private final Path path;

  private TmpfsMount(Path path) {
    this.path = path;
  }

  /** Mounts a tmpfs of {@code bytes} on {@code dir} (created if missing), or skips the test. */
  public static TmpfsMount mount(Path dir, long bytes) {
    Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux"),
        "Skipped: mounting a tmpfs needs Linux");
    Result r;
    try {
      Files.createDirectories(dir);
      r = run(List.of("mount", "-t", "tmpfs", "-o", "size=" + bytes, "tmpfs", dir.toString()));
    } catch (IOException e) {
      r = new Result(-1, String.valueOf(e.getMessage()));
    }
    Assumptions.assumeTrue(r.exit() == 0, "Skipped: cannot mount a tmpfs on " + dir + " ("
        + r.output().strip() + "): this test fills a small file system and needs root or"
        + " CAP_SYS_ADMIN to mount one");
    return new TmpfsMount(dir);
  }

  private record Result(int exit, String output) {
  }

  private static Result run(List<String> command) throws IOException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(-1, String.join(" ", command) + " timed out");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      throw new IOException("interrupted", e);
    }
    return new Result(p.exitValue(),
        new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  /** The mount point. */
  public Path path() {
    return path;
  }

  /** The usable space left. */
  public long usableSpace() {
    try {
      return Files.getFileStore(path).getUsableSpace();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Appends zeros to {@code file} until it holds {@code bytes} or the file system is full,
   * whichever comes first; returns the file's size.
   */
  public static long grow(Path file, long bytes) {
    byte[] chunk = new byte[64 * 1024];
    try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND)) {
      long size = Files.size(file);
      while (size < bytes) {
        int n = (int) Math.min(chunk.length, bytes - size);
        out.write(chunk, 0, n);
        size += n;
      }
    } catch (IOException e) {
      if (!String.valueOf(e.getMessage()).contains("No space left on device")) {
        throw new UncheckedIOException(e);
      }
    }
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Grows {@code file} until the file system is full; returns its size. */
  public static long fill(Path file) {
    return grow(file, Long.MAX_VALUE);
  }

  /** Unmounts (lazily if something still holds it open). */
  @Override
  public void close() {
    try {
      Result r = run(List.of("umount", path.toString()));
      if (r.exit() != 0) {
        r = run(List.of("umount", "-l", path.toString()));
      }
      if (r.exit() != 0) {
        throw new IllegalStateException("Cannot unmount " + path + ": " + r.output());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
