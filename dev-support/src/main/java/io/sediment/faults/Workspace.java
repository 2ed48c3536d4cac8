package io.sediment.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Owns everything the campaign leaves on the machine: one temporary directory (every store, copy,
 * output file and child JVM's {@code java.io.tmpdir} lives below it), the child processes started
 * and the file systems mounted. {@link #close} kills the processes still alive
 * ({@code destroyForcibly}), unmounts, and deletes the directory (unless kept); it is idempotent
 * and safe to call from a shutdown hook while the campaign thread is still running. Thread safe.
 */
final class Workspace implements AutoCloseable {

  private final Path root;
  private final boolean keep;
  private final List<Process> processes = new ArrayList<>();
  private final List<TmpfsMount> mounts = new ArrayList<>();
  private boolean closed;

  Workspace(boolean keep) throws IOException {
    this.root = Files.createTempDirectory("sediment-faults-");
    this.keep = keep;
    Files.createDirectories(tmp());
  }

  Path root() {
    return root;
  }

  /** The {@code java.io.tmpdir} of every child JVM (secondaries' directories land here). */
  Path tmp() {
    return root.resolve("tmp");
  }

  /** A new directory {@code root/name} (parents created). */
  Path dir(String name) throws IOException {
    return Files.createDirectories(root.resolve(name));
  }

  /** Registers a started process, to be killed at {@link #close} if still alive. */
  synchronized Process track(Process p) {
    if (closed) {
      p.destroyForcibly();
      throw new IllegalStateException("workspace closed");
    }
    processes.add(p);
    return p;
  }

  synchronized void track(TmpfsMount mount) {
    mounts.add(mount);
  }

  synchronized void untrack(TmpfsMount mount) {
    mounts.remove(mount);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Process p : processes) {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
    for (Process p : processes) {
      try {
        p.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (TmpfsMount m : mounts) {
      m.unmountQuietly();
    }
    mounts.clear();
    if (keep) {
      System.err.println("faults: kept " + root);
    } else {
      StoreFiles.deleteTree(root);
    }
  }
}
