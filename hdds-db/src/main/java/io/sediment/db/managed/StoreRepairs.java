package io.sediment.db.managed;

import io.sediment.db.FileCheck;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** The file-level work behind {@link io.sediment.db.StoreMaintenance}. Stateless. */
public final class StoreRepairs {

  private StoreRepairs() {
  }

  public static List<FileCheck> verifyUnopened(Path dir) throws IOException {
    return FileVerifier.verifyUnopened(dir);
  }

  public static List<Path> copyAside(Path dir, Path aside) throws IOException {
    Files.createDirectories(aside.getParent());
    Files.createDirectory(aside);
    List<Path> copied = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
        String name = p.getFileName().toString();
        if (!name.endsWith(".sst") && !name.equals("LOCK") && !name.startsWith("LOG")) {
          copied.add(Files.copy(p, aside.resolve(name), StandardCopyOption.COPY_ATTRIBUTES));
        }
      }
    }
    return copied;
  }

  public static String rebuildCurrent(Path dir) throws IOException {
    Path current = dir.resolve("CURRENT");
    if (Files.exists(current)) {
      throw new IOException(current + " exists: nothing to rebuild");
    }
    String manifest;
    try (Stream<Path> s = Files.list(dir)) {
      manifest = s.map(p -> p.getFileName().toString())
          .filter(n -> n.matches("MANIFEST-\\d+"))
          .max(Comparator.comparingLong(n -> Long.parseLong(n.substring("MANIFEST-".length()))))
          .orElseThrow(() -> new IOException("no MANIFEST in " + dir + ": CURRENT cannot be"
              + " rebuilt; restore the store from a checkpoint"));
    }
    Path tmp = dir.resolve("CURRENT.repair-tmp");
    Files.writeString(tmp, manifest + "\n", StandardCharsets.US_ASCII);
    Files.move(tmp, current, StandardCopyOption.ATOMIC_MOVE);
    return manifest;
  }
}
