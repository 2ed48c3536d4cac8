package io.sediment.faults;

import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs one tool of the corruption matrix against one store and says what it showed: whether it
 * opened the store, the rows or keys it showed (its view, sorted), and whether reads failed.
 */
final class ToolProbe {

  private static final Pattern RECON_AT = Pattern.compile("Recon at (http://\\S+?)/ ");

  /**
   * What a tool did.
   *
   * @param result how its process ended
   * @param opened the tool accepted the store (verify: passed; ldb: exit 0; serve and recon:
   *     listened)
   * @param view the sorted rows (ldb) or bucket/key names (serve, recon) it showed; null if none
   * @param readError why reading an opened store failed, or null
   * @param rowsBeforeFailure rows ldb printed before it failed
   */
  record Observation(ToolResult result, boolean opened, List<String> view, String readError,
      int rowsBeforeFailure) {
  }

  private final SedimentLauncher launcher;
  private final CampaignOptions options;

  ToolProbe(SedimentLauncher launcher, CampaignOptions options) {
    this.launcher = launcher;
    this.options = options;
  }

  Observation probe(MatrixTool tool, Path data, Path work)
      throws IOException, InterruptedException {
    return switch (tool) {
      case VERIFY -> verify(data, work);
      case LDB -> ldb(data, work);
      case SERVE -> serve(data, work);
      case RECON -> recon(data, work);
    };
  }

  private Observation verify(Path data, Path work) throws IOException, InterruptedException {
    ToolResult r = launcher.run(work, "verify", options.toolTimeout(), "verify", "--data",
        data.toString());
    return new Observation(r, r.exitCode() == 0, null, null, 0);
  }

  private Observation ldb(Path data, Path work) throws IOException, InterruptedException {
    ToolResult r = launcher.run(work, "ldb", options.toolTimeout(), "ldb", "--data",
        data.toString(), "--table", "keyTable");
    List<String> rows = r.out().lines().filter(l -> !l.isBlank()).sorted().toList();
    return r.exitCode() == 0 ? new Observation(r, true, rows, null, 0)
        : new Observation(r, false, null, null, rows.size());
  }

  private Observation serve(Path data, Path work) throws IOException, InterruptedException {
    Server server = Server.start(launcher, work, "serve", data, options.startTimeout(),
        "--no-background-services");
    if (!server.up()) {
      return new Observation(server.refusal(), false, null, null, 0);
    }
    List<String> view = new ArrayList<>();
    String readError = null;
    try (OmClient client = new OmClient(server.target(), options.callDeadline())) {
      for (String bucket : PristineStore.BUCKETS) {
        for (String key : client.listKeys(PristineStore.VOLUME, bucket)) {
          view.add(bucket + "/" + key);
        }
      }
    } catch (StatusRuntimeException e) {
      readError = e.getStatus().getCode() + ": " + shorten(e.getStatus().getDescription());
    }
    ToolResult stopped = server.stop(options.drainTimeout().plusSeconds(60));
    view.sort(null);
    return new Observation(stopped, true, readError == null ? view : null, readError, 0);
  }

  private Observation recon(Path data, Path work) throws IOException, InterruptedException {
    ChildProcess p = launcher.start(work, "recon", List.of("recon", "--db",
        data.resolve("om").toString(), "--port", "0"));
    Matcher m = p.awaitOutput(RECON_AT, options.startTimeout());
    if (m == null) {
      return new Observation(p.await(p.alive() ? Duration.ZERO : Duration.ofSeconds(30)), false,
          null, null, 0);
    }
    List<String> view = new ArrayList<>();
    String readError = null;
    try {
      for (String bucket : PristineStore.BUCKETS) {
        for (String key : ReconKeys.list(m.group(1), PristineStore.VOLUME, bucket)) {
          view.add(bucket + "/" + key);
        }
      }
    } catch (ReconKeys.HttpError | IOException e) {
      readError = shorten(e.getMessage());
    }
    p.terminate();
    ToolResult stopped = p.await(Duration.ofSeconds(60));
    view.sort(null);
    return new Observation(stopped, true, readError == null ? view : null, readError, 0);
  }

  private static String shorten(String s) {
    if (s == null) {
      return "";
    }
    String t = s.replaceAll("\\s+", " ").strip();
    return t.length() > 140 ? t.substring(0, 137) + "..." : t;
  }
}
