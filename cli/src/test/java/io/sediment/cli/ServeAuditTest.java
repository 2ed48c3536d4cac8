package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.GetVolumeRequest;
import io.sediment.proto.om.OmServiceGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve --audit-log} and {@code --audit-reads}: where the lines go, which are written. */
class ServeAuditTest {

  @TempDir Path dir;

  private static void writeAndRead(ManagedChannel channel) {
    OmServiceGrpc.OmServiceBlockingStub om = OmServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(60, TimeUnit.SECONDS);
    om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol1").build());
    om.getVolume(GetVolumeRequest.newBuilder().setVolume("vol1").build());
  }

  @Test
  void byDefaultEveryCallIsWrittenUnderTheDataDirectory() throws Exception {
    Path data = dir.resolve("data");
    String out = ServeBackgroundServicesTest.serveWith(data, List.of("--no-recon"),
        ServeAuditTest::writeAndRead);
    Path file = data.toAbsolutePath().normalize().resolve("logs").resolve("audit.log");
    assertTrue(out.contains("Audit log: " + file + " (successful reads: all)"), out);
    List<String> lines = Files.readAllLines(file);
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(0).contains("\"rpc\":\"sediment.om.v1.OmService/CreateVolume\""),
        lines.get(0));
    assertTrue(lines.get(1).contains("\"rpc\":\"sediment.om.v1.OmService/GetVolume\""),
        lines.get(1));
    String log = Files.readString(data.resolve("logs").resolve("sediment.log"));
    assertFalse(log.contains("CreateVolume"), "audit lines stay out of the server log: " + log);
    assertEquals("rwx------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(file.getParent())), "the logs directory is the owner's only");
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
  }

  @Test
  void aFileOfItsOwnWithReadsOffAndNoneWritesNothing() throws Exception {
    Path file = dir.resolve("audit").resolve("calls.log");
    String out = ServeBackgroundServicesTest.serveWith(dir.resolve("data"), List.of("--no-recon",
        "--audit-log", file.toString(), "--audit-reads", "none"), ServeAuditTest::writeAndRead);
    assertTrue(out.contains("(successful reads: none)"), out);
    List<String> lines = Files.readAllLines(file);
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.get(0).contains("CreateVolume"), lines.get(0));

    Path other = dir.resolve("other");
    out = ServeBackgroundServicesTest.serveWith(other, List.of("--no-recon", "--audit-log",
        "none"), ServeAuditTest::writeAndRead);
    assertTrue(out.contains("Audit log: none (--audit-log none)"), out);
    assertFalse(Files.exists(other.resolve("logs").resolve("audit.log")));
  }

  @Test
  void badValuesAreUsageErrors() throws Exception {
    Files.createDirectories(dir.resolve("adir"));
    List<List<String>> bad = List.of(List.of("--audit-reads", "sometimes"),
        List.of("--audit-reads", "sample:0"), List.of("--audit-log", " "),
        List.of("--audit-log", dir.resolve("adir").toString()));
    int i = 0;
    for (List<String> flags : bad) {
      Path data = dir.resolve("bad-" + i++);
      String[] args = Stream.concat(Stream.of("serve", "--data", data.toString(),
          "--port", "0", "--recon-port", "0"), flags.stream()).toArray(String[]::new);
      Run r = run(args);
      assertEquals(2, r.code(), flags + ": " + r.err());
      assertTrue(r.err().contains(flags.get(0)), r.err());
      assertFalse(Files.exists(data.resolve("om")), "no store is created: " + flags);
    }
  }
}
