package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.sediment.om.core.LogPosition;
import io.sediment.proto.om.CheckpointChunk;
import io.sediment.proto.om.CheckpointFile;
import io.sediment.proto.om.CheckpointFileDigest;
import io.sediment.proto.om.CheckpointManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a replica accepts as a copy of its leader's store: exactly the files the manifest lists,
 * each of its announced size and CRC32C, each inside the download directory; anything else is
 * refused with a reason before the copy could be installed.
 */
class CheckpointDownloadTest {

  @TempDir
  Path into;

  private static CheckpointChunk file(String path, long size) {
    return CheckpointChunk.newBuilder()
        .setFile(CheckpointFile.newBuilder().setPath(path).setSize(size)).build();
  }

  private static CheckpointChunk data(String s) {
    return CheckpointChunk.newBuilder().setData(ByteString.copyFromUtf8(s)).build();
  }

  private static CheckpointFileDigest digest(String path, String content) {
    CRC32C crc = new CRC32C();
    byte[] b = content.getBytes(StandardCharsets.UTF_8);
    crc.update(b);
    return CheckpointFileDigest.newBuilder().setPath(path).setSize(b.length)
        .setCrc32C((int) crc.getValue()).build();
  }

  private static CheckpointChunk manifest(CheckpointFileDigest... files) {
    return CheckpointChunk.newBuilder().setManifest(CheckpointManifest.newBuilder().setTerm(2)
        .setIndex(40).addAllFiles(List.of(files))).build();
  }

  /** A well-formed copy of two files, one in a subdirectory, the second's data in two chunks. */
  private static List<CheckpointChunk> good() {
    return new ArrayList<>(List.of(file("CURRENT", 5), data("MANI\n"),
        file("snapshots/s1/000007.sst", 6), data("abc"), data("def"),
        manifest(digest("CURRENT", "MANI\n"), digest("snapshots/s1/000007.sst", "abcdef"))));
  }

  private int attempts;

  /** Receives {@code chunks} into a fresh empty directory and returns why they were refused. */
  private IOException refused(List<CheckpointChunk> chunks) throws IOException {
    Path dir = Files.createDirectory(into.resolve("attempt" + ++attempts));
    return assertThrows(IOException.class,
        () -> CheckpointDownload.receive(chunks.iterator(), dir));
  }

  @Test
  void aWholeCopyIsWrittenAndItsPositionReturned() throws IOException {
    CheckpointDownload.Received r = CheckpointDownload.receive(good().iterator(), into);

    assertEquals(new LogPosition(2, 40), r.position());
    assertEquals(2, r.files());
    assertEquals(11, r.bytes());
    assertEquals("abcdef", Files.readString(into.resolve("snapshots/s1/000007.sst")));
  }

  @Test
  void namesOutsideTheDirectoryAreRefused() throws IOException {
    for (String name : List.of("../evil", "/etc/passwd", "a/../../b", "", "a/./b", "a//b")) {
      List<CheckpointChunk> chunks = good();
      chunks.set(0, file(name, 5));
      IOException e = refused(chunks);
      assertTrue(e.getMessage().contains("outside its directory"), name + ": " + e.getMessage());
    }
    assertTrue(Files.notExists(into.resolve("evil")));
  }

  @Test
  void aFileShorterOrLongerThanAnnouncedIsRefused() throws IOException {
    List<CheckpointChunk> shorter = good();
    shorter.set(0, file("CURRENT", 6));
    assertTrue(refused(shorter).getMessage().contains("5 of the 6 bytes"));

    List<CheckpointChunk> longer = good();
    longer.set(0, file("CURRENT", 4));
    assertTrue(refused(longer).getMessage().contains("more than the 4 bytes"));
  }

  @Test
  void aFileWhoseBytesDoNotMatchTheManifestIsRefused() throws IOException {
    List<CheckpointChunk> chunks = good();
    chunks.set(4, data("deX"));
    assertTrue(refused(chunks).getMessage().contains("does not match its manifest"));
  }

  @Test
  void aManifestListingOtherFilesIsRefused() throws IOException {
    List<CheckpointChunk> chunks = good();
    chunks.set(5, manifest(digest("CURRENT", "MANI\n")));
    assertTrue(refused(chunks).getMessage().contains("other ones than"));
  }

  @Test
  void aCopyCutShortOrMisorderedIsRefused() throws IOException {
    List<CheckpointChunk> cut = good();
    cut.remove(5);
    assertTrue(refused(cut).getMessage().contains("without its manifest"));

    List<CheckpointChunk> dataFirst = good();
    dataFirst.add(0, data("x"));
    assertTrue(refused(dataFirst).getMessage().contains("before naming a file"));

    List<CheckpointChunk> twice = good();
    twice.addAll(2, List.of(file("CURRENT", 5), data("MANI\n")));
    assertTrue(refused(twice).getMessage().contains("twice"));

    List<CheckpointChunk> trailing = good();
    trailing.add(data("x"));
    assertTrue(refused(trailing).getMessage().contains("after its manifest"));
  }
}
