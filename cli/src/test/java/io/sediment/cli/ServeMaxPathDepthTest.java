package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateDirectoryRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.OmServiceGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code serve --max-path-depth}: the limit reaches the store; a bad value is a usage error. */
class ServeMaxPathDepthTest {

  @TempDir Path dir;

  @Test
  void theServedStoreRefusesPathsDeeperThanTheOption() throws Exception {
    ServeBackgroundServicesTest.serveWith(dir.resolve("data"),
        List.of("--max-path-depth", "3", "--no-recon"), channel -> {
          OmServiceGrpc.OmServiceBlockingStub om = OmServiceGrpc.newBlockingStub(channel)
              .withDeadlineAfter(60, TimeUnit.SECONDS);
          om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol1").build());
          om.createBucket(CreateBucketRequest.newBuilder().setVolume("vol1").setBucket("fso1")
              .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
          om.createDirectory(CreateDirectoryRequest.newBuilder().setVolume("vol1")
              .setBucket("fso1").setPath("a/b/c").build());
          StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
              () -> om.createDirectory(CreateDirectoryRequest.newBuilder().setVolume("vol1")
                  .setBucket("fso1").setPath("a/b/c/d").build()));
          assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
          assertTrue(e.getStatus().getDescription().contains("maximum path depth of 3"),
              e.getStatus().getDescription());
        });
  }

  @Test
  void theDefaultIsTheStoreDefaultAndANonPositiveDepthIsAUsageError() {
    ServeCommand serve = new ServeCommand();
    new CommandLine(serve).parseArgs();
    assertEquals(OmStoreOptions.DEFAULT_MAX_PATH_DEPTH, serve.storeOptions.maxPathDepth);
    for (String bad : List.of("0", "-1", "deep")) {
      Path data = dir.resolve("bad-" + bad);
      Run r = run("serve", "--data", data.toString(), "--port", "0", "--recon-port", "0",
          "--max-path-depth", bad);
      assertEquals(2, r.code(), bad + ": " + r.err());
      assertTrue(r.err().contains("--max-path-depth"), r.err());
      assertTrue(!Files.exists(data.resolve("om")), "no store is created: " + bad);
    }
  }
}
