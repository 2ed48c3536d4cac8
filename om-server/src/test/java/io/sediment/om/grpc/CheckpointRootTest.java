package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.OmMetadataStore;
import io.sediment.proto.om.CreateCheckpointRequest;
import io.sediment.proto.om.CreateCheckpointResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CreateCheckpoint} writes only below the server's checkpoint root: a path relative to it
 * or absolute inside it is written, owner-only; anything else (climbing out, absolute elsewhere,
 * a symbolic link leading out) is INVALID_ARGUMENT naming the root, with nothing created.
 */
class CheckpointRootTest {

  @TempDir Path dir;
  private GrpcFixture f;
  private Path root;
  private Path outside;

  @BeforeEach
  void start() throws IOException {
    f = new GrpcFixture(dir.resolve("om"));
    root = f.checkpointRoot().toRealPath();
    outside = Files.createDirectory(dir.resolve("outside"));
    f.store.createVolume("vol", "alice");
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void theRootIsCreatedOwnerOnly() throws IOException {
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root)));
  }

  @Test
  void aRelativeOrAnAbsolutePathInsideTheRootIsWrittenReadableByTheServerUserOnly()
      throws IOException {
    CreateCheckpointResponse rel = checkpoint("daily");
    assertEquals(root.resolve("daily").toString(), rel.getDir());
    Files.createDirectory(root.resolve("weekly"));
    CreateCheckpointResponse abs = checkpoint(root.resolve("weekly/./w1").toString());
    assertEquals(root.resolve("weekly/w1").toString(), abs.getDir());
    CreateCheckpointResponse climbsBack = checkpoint("weekly/../w2");
    assertEquals(root.resolve("w2").toString(), climbsBack.getDir());

    for (Path cp : List.of(root.resolve("daily"), root.resolve("weekly/w1"))) {
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cp)));
      try (Stream<Path> files = Files.list(cp)) {
        for (Path file : files.toList()) {
          Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
          int links = (Integer) Files.getAttribute(file, "unix:nlink");
          if (links == 1) {
            assertEquals("rw-------", PosixFilePermissions.toString(perms), file.toString());
          }
        }
      }
      try (OmMetadataStore copy = OmMetadataStore.open(cp)) {
        assertEquals(1, copy.listVolumes(null, null, 10).items().size());
      }
    }
  }

  @Test
  void theLiveStoresFilesKeepTheirModes() throws IOException {
    f.store.dbStore().flush();
    List<Path> sst;
    try (Stream<Path> files = Files.list(dir.resolve("om"))) {
      sst = files.filter(p -> p.toString().endsWith(".sst")).toList();
    }
    assertFalse(sst.isEmpty());
    Set<PosixFilePermission> before = Files.getPosixFilePermissions(sst.get(0));
    checkpoint("cp");
    assertEquals(before, Files.getPosixFilePermissions(sst.get(0)),
        "a checkpoint's hard links are the live store's files too");
  }

  @Test
  void aPathClimbingOutOfTheRootIsRefusedNamingTheRootAndNothingIsCreated() throws IOException {
    for (String bad : List.of("../x", "a/../../x", "..", ".", "", root.toString(),
        root + "/../x", outside.resolve("x").toString(), "/tmp/sediment-cp-escape")) {
      StatusRuntimeException e = refused(Status.Code.INVALID_ARGUMENT, bad);
      assertTrue(e.getStatus().getDescription().contains(root.toString()),
          bad + ": " + e.getStatus().getDescription());
    }
    assertNothingCreated();
    assertFalse(Files.exists(Path.of("/tmp/sediment-cp-escape")));
  }

  @Test
  void aSymbolicLinkLeadingOutOfTheRootIsNeverFollowed() throws IOException {
    Files.createSymbolicLink(root.resolve("out"), outside);
    Files.createDirectory(outside.resolve("deeper"));
    Files.createDirectory(root.resolve("in"));
    Files.createSymbolicLink(root.resolve("in/back"), Path.of("../out"));
    Files.createSymbolicLink(root.resolve("dangling"), dir.resolve("nowhere"));
    for (String bad : List.of("out/cp", "out/deeper/cp", root.resolve("out/cp").toString(),
        "in/back/cp", "dangling/cp")) {
      StatusRuntimeException e = refused(Status.Code.INVALID_ARGUMENT, bad);
      assertTrue(e.getStatus().getDescription().contains(root.toString()),
          bad + ": " + e.getStatus().getDescription());
    }
    refused(Status.Code.ALREADY_EXISTS, "out");
    refused(Status.Code.ALREADY_EXISTS, "dangling");
    assertEquals(List.of(outside.resolve("deeper")), list(outside));
    assertFalse(Files.exists(dir.resolve("nowhere")));
    assertEquals(List.of(), list(outside.resolve("deeper")));
  }

  @Test
  void aLinkInsideTheRootToADirectoryInsideItIsFollowed() throws IOException {
    Files.createDirectory(root.resolve("real"));
    Files.createSymbolicLink(root.resolve("alias"), Path.of("real"));
    assertEquals(root.resolve("real/cp").toString(), checkpoint("alias/cp").getDir());
    assertTrue(Files.isRegularFile(root.resolve("real/cp/CURRENT"), LinkOption.NOFOLLOW_LINKS));
  }

  @Test
  void aServerWithoutARootWritesNoCheckpoint() throws IOException {
    try (OmMetadataStore store = OmMetadataStore.open(dir.resolve("other"))) {
      OmGrpcServer s = OmGrpcServer.builder(store).port(0).build().start();
      io.grpc.ManagedChannel ch = io.grpc.Grpc.newChannelBuilderForAddress("127.0.0.1", s.port(),
          io.grpc.InsecureChannelCredentials.create()).build();
      try {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
            () -> io.sediment.proto.om.AdminServiceGrpc.newBlockingStub(ch).createCheckpoint(
                CreateCheckpointRequest.newBuilder().setDir(dir.resolve("cp").toString())
                    .build()));
        assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
        assertFalse(Files.exists(dir.resolve("cp")));
      } finally {
        ch.shutdownNow();
        s.shutdown(java.time.Duration.ofSeconds(5));
      }
    }
  }

  @Test
  void anExistingRootThatIsAFileIsRefused() throws IOException {
    Path file = Files.createFile(dir.resolve("file"));
    IOException e = assertThrows(IOException.class, () -> CheckpointRoot.open(file));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  private CreateCheckpointResponse checkpoint(String path) {
    return f.admin.createCheckpoint(CreateCheckpointRequest.newBuilder().setDir(path).build());
  }

  private StatusRuntimeException refused(Status.Code code, String path) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> checkpoint(path),
        path);
    assertEquals(code, e.getStatus().getCode(), path + ": " + e.getMessage());
    return e;
  }

  private void assertNothingCreated() throws IOException {
    assertEquals(List.of(), list(root));
    assertEquals(List.of(), list(outside));
  }

  private static List<Path> list(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.sorted().toList();
    }
  }
}
