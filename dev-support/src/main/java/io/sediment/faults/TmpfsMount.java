package io.sediment.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs mounted on a directory with {@code mount -t tmpfs}, for running out of space on
 * purpose. Mounting needs privileges the machine may not grant: {@link #tryMount} then says why.
 */
final class TmpfsMount {

  private final Path dir;
  private boolean mounted;

  private TmpfsMount(Path dir) {
    this.dir = dir;
  }

  /** Result of {@link #tryMount}: the mount, or why there is none. */
  record Attempt(TmpfsMount mount, String refusal) {
  }

  /** Mounts a tmpfs of {@code megabytes} MiB on {@code dir} (an existing empty directory). */
  static Attempt tryMount(Path dir, int megabytes) {
    try {
      Run r = run(List.of("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs",
          dir.toString()));
      if (r.code != 0) {
        return new Attempt(null, "mounting not permitted (" + r.output.strip() + ")");
      }
    } catch (IOException e) {
      return new Attempt(null, "mounting not permitted (" + e.getMessage() + ")");
    }
    TmpfsMount m = new TmpfsMount(dir);
    m.mounted = true;
    return new Attempt(m, null);
  }

  Path dir() {
    return dir;
  }

  /** Unmounts (lazily if busy); never throws. */
  synchronized void unmountQuietly() {
    if (!mounted) {
      return;
    }
    try {
      if (run(List.of("umount", dir.toString())).code != 0) {
        run(List.of("umount", "-l", dir.toString()));
      }
    } catch (IOException e) {
      System.err.println("faults: could not unmount " + dir + ": " + e.getMessage());
    }
    mounted = false;
  }

  private record Run(int code, String output) {
  }

  private static Run run(List<String> cmd) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Run(-1, String.join(" ", cmd) + ": timed out");
      }
      return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(),
          StandardCharsets.UTF_8));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      throw new IOException("interrupted", e);
    }
  }
}
