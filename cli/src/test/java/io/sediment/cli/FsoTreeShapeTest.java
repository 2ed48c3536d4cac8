package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The names and counts of the FSO tree `load` writes, checked against an enumeration. */
class FsoTreeShapeTest {

  @Test
  void directoriesAreNumberedLevelByLevelAndEveryParentComesFirst() {
    FsoTreeShape t = new FsoTreeShape(3, 2, 1);
    List<String> dirs = new ArrayList<>();
    for (long i = 0; i < t.directories(); i++) {
      dirs.add(t.directory(i));
    }
    assertEquals(List.of("dir-0", "dir-1", "dir-0/dir-0", "dir-0/dir-1", "dir-1/dir-0",
        "dir-1/dir-1", "dir-0/dir-0/dir-0", "dir-0/dir-0/dir-1", "dir-0/dir-1/dir-0",
        "dir-0/dir-1/dir-1", "dir-1/dir-0/dir-0", "dir-1/dir-0/dir-1", "dir-1/dir-1/dir-0",
        "dir-1/dir-1/dir-1"), dirs);
    assertThrows(IndexOutOfBoundsException.class, () -> t.directory(14));
  }

  @Test
  void countsMatchAnEnumerationOfTheTree() {
    for (int depth = 1; depth <= 4; depth++) {
      for (int fanout = 1; fanout <= 4; fanout++) {
        for (int files = 0; files <= 3; files++) {
          FsoTreeShape t = new FsoTreeShape(depth, fanout, files);
          Set<String> entries = new HashSet<>();
          for (long i = 0; i < t.directories(); i++) {
            String d = t.directory(i);
            int slash = d.lastIndexOf('/');
            assertTrue(slash < 0 || entries.contains(d.substring(0, slash)), "parent first: " + d);
            assertTrue(entries.add(d), d);
          }
          for (long i = 0; i < t.files(); i++) {
            String f = t.file(i);
            int slash = f.lastIndexOf('/');
            assertTrue(slash < 0 || entries.contains(f.substring(0, slash)), f);
            assertTrue(entries.add(f), f);
          }
          String what = depth + "/" + fanout + "/" + files;
          long dirs = entries.stream().filter(e -> !e.substring(e.lastIndexOf('/') + 1)
              .startsWith("file-")).count();
          assertEquals(dirs, t.directories(), what);
          assertEquals((dirs + 1) * files, t.files(), what);
          long deleted = entries.stream().filter(e -> t.deletedSubtrees().stream()
              .anyMatch(s -> e.equals(s) || e.startsWith(s + "/"))).count();
          assertEquals(deleted, t.deletedDirectories() + t.deletedFiles(), what);
          assertEquals(entries.size() - deleted, t.liveEntries(), what);
          assertTrue(t.deletedSubtrees().stream().allMatch(entries::contains), what);
        }
      }
    }
  }

  @Test
  void theDefaultTreeAndItsDeletedSubtrees() {
    FsoTreeShape t = new FsoTreeShape(4, 2, 3);
    assertEquals(30, t.directories());
    assertEquals(93, t.files());
    assertEquals(List.of("dir-0/dir-1", "dir-1/dir-1"), t.deletedSubtrees());
    assertEquals(14, t.deletedDirectories());
    assertEquals(67, t.liveEntries());
    assertEquals("file-2", t.file(2));
    assertEquals("dir-0/file-0", t.file(3));
    assertEquals(List.of("dir-0"), new FsoTreeShape(1, 1, 0).deletedSubtrees());
  }

  @Test
  void aTreeTooLargeOrOutOfRangeIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new FsoTreeShape(100, 2, 0));
    assertThrows(IllegalArgumentException.class, () -> new FsoTreeShape(0, 2, 1));
    assertThrows(IllegalArgumentException.class, () -> new FsoTreeShape(2, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new FsoTreeShape(2, 2, -1));
    assertEquals(100, new FsoTreeShape(100, 1, 0).directories());
  }
}
