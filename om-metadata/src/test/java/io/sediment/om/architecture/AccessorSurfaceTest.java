package io.sediment.om.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.WriteTxn;
import io.sediment.om.listing.PageSource;
import io.sediment.om.listing.Scan;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public surface embedders see: the facade stays small, and what its feature accessors return
 * exposes operations only, never lifecycle or internals of the store.
 */
class AccessorSurfaceTest {

  /** Types an embedder must never be handed or asked for by an accessor's public method. */
  private static final Set<Class<?>> INTERNAL = Set.of(OmContext.class, WriteTxn.class,
      ReadView.class, DBStore.class, Table.class, PageSource.class, Scan.class);
  private static final List<String> ACCESSORS =
      List.of("snapshots", "multipart", "fso", "openFiles", "lifecycle", "replicaFiles");

  @Test
  void theFeatureAccessorsExposeOperationsOnly() throws Exception {
    List<String> problems = new ArrayList<>();
    for (String name : ACCESSORS) {
      Method accessor = OmMetadataStore.class.getMethod(name);
      Class<?> type = accessor.getReturnType();
      if (AutoCloseable.class.isAssignableFrom(type)) {
        problems.add(type.getSimpleName() + " is closeable: closing it would break the store");
      }
      for (Method m : type.getMethods()) {
        if (m.getDeclaringClass() == Object.class) {
          continue;
        }
        if (Modifier.isStatic(m.getModifiers())) {
          problems.add(type.getSimpleName() + "." + m.getName() + " is a public static method");
        }
        if (m.getName().equals("close") || m.getName().startsWith("move")) {
          problems.add(type.getSimpleName() + "." + m.getName() + " is lifecycle or migration");
        }
        List<Type> used = new ArrayList<>(List.of(m.getGenericParameterTypes()));
        used.add(m.getGenericReturnType());
        for (Type t : used) {
          for (Class<?> internal : INTERNAL) {
            if (t.getTypeName().contains(internal.getName())) {
              problems.add(type.getSimpleName() + "." + m.getName() + " uses "
                  + internal.getSimpleName());
            }
          }
        }
      }
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void eachAccessorMethodStatesItsContract() throws IOException {
    for (String file : List.of("snapshot/Snapshots", "multipart/MultipartUploads",
        "fso/FsoNamespace", "openfiles/OpenFiles", "purge/LifecycleScans")) {
      String src = Files.readString(Path.of("src/main/java/io/sediment/om/" + file + ".java"));
      String[] lines = src.split("\n");
      for (int i = 0; i < lines.length; i++) {
        String line = lines[i];
        boolean publicMethod = line.startsWith("  public ") && line.contains("(")
            && !line.contains(" class ") && !line.contains("=");
        if (publicMethod && !isConstructor(line, file)) {
          assertTrue(lines[i - 1].trim().endsWith("*/"),
              file + ": no Javadoc on `" + line.trim() + "`");
        }
      }
    }
  }

  @Test
  void theFacadeStaysSmall() throws IOException {
    Path facade = Path.of("src/main/java/io/sediment/om/OmMetadataStore.java");
    long lines;
    try (Stream<String> all = Files.lines(facade)) {
      lines = all.count();
    }
    // One-line delegations for volumes, buckets and OBJECT_STORE keys, plus the area accessors;
    // anything larger belongs in an area object behind an accessor.
    assertTrue(lines <= 366, "OmMetadataStore has " + lines + " lines; at most 366");
  }

  private static boolean isConstructor(String line, String file) {
    String simple = file.substring(file.indexOf('/') + 1);
    return line.startsWith("  public " + simple + "(");
  }
}
