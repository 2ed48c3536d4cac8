package io.sediment.recon;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * A headless Chromium showing one page, driven over the DevTools protocol (a WebSocket, JSON
 * messages): scripts run in the page with {@link #evaluate}, in real time, so a test can click,
 * wait for timers and read what was drawn. The browser's console goes to {@code log}. Closing
 * ends the browser process. Not thread-safe.
 */
final class DevToolsBrowser implements AutoCloseable {

  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration CALL = Duration.ofSeconds(30);

  private final Process process;
  private final WebSocket socket;
  private final ObjectMapper json = new ObjectMapper();
  private final Map<Integer, CompletableFuture<JsonNode>> replies = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();

  private DevToolsBrowser(Process process, URI page) throws IOException, InterruptedException {
    this.process = process;
    try {
      this.socket = HttpClient.newHttpClient().newWebSocketBuilder()
          .buildAsync(page, new Replies()).get(CALL.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("cannot connect to the page at " + page, e);
    }
  }

  /**
   * Starts Chromium on {@code url} with a fresh profile and connects to the page.
   *
   * @param flags the browser's flags, the DevTools port and the profile excluded
   */
  static DevToolsBrowser open(List<String> flags, Path profile, Path log, String url)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(flags);
    cmd.addAll(List.of("--user-data-dir=" + profile, "--remote-debugging-port=0", url));
    Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(log.toFile()).start();
    try {
      return new DevToolsBrowser(p, pageSocket(profile.resolve("DevToolsActivePort"), p));
    } catch (IOException | RuntimeException | InterruptedException e) {
      p.destroyForcibly();
      throw e;
    }
  }

  /** The page's DevTools WebSocket, from the port Chromium writes into its profile. */
  private static URI pageSocket(Path portFile, Process p) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START.toNanos();
    HttpClient http = HttpClient.newHttpClient();
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new IOException("chromium exited with " + p.exitValue());
      }
      List<String> lines = Files.exists(portFile) ? Files.readAllLines(portFile) : List.of();
      if (lines.size() >= 2) {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + lines.get(0).trim() + "/json/list")).build(),
            HttpResponse.BodyHandlers.ofString());
        for (JsonNode t : new ObjectMapper().readTree(r.body())) {
          if ("page".equals(t.path("type").asText())) {
            return URI.create(t.get("webSocketDebuggerUrl").asText());
          }
        }
      }
      Thread.sleep(100);
    }
    throw new IOException("chromium opened no page with DevTools in " + START);
  }

  /**
   * The value of a JavaScript expression in the page (a promise is awaited), as JSON.
   *
   * @throws AssertionError if it throws
   */
  JsonNode evaluate(String expression) {
    ObjectNode params = json.createObjectNode().put("expression", expression)
        .put("returnByValue", true).put("awaitPromise", true);
    JsonNode r = call("Runtime.evaluate", params);
    if (r.at("/result/exceptionDetails").isObject()) {
      throw new AssertionError("the page threw on " + expression + ": " + r);
    }
    return r.at("/result/result/value");
  }

  /** Saves what the page shows now as a PNG. */
  void screenshot(Path png) throws IOException {
    JsonNode r = call("Page.captureScreenshot", json.createObjectNode().put("format", "png"));
    Files.createDirectories(png.getParent());
    Files.write(png, java.util.Base64.getDecoder().decode(r.at("/result/data").asText()));
  }

  /** One DevTools call and its reply ({@code result} or, refused, an AssertionError). */
  private JsonNode call(String method, ObjectNode params) {
    int id = ids.incrementAndGet();
    ObjectNode call = json.createObjectNode().put("id", id).put("method", method);
    call.set("params", params);
    CompletableFuture<JsonNode> reply = new CompletableFuture<>();
    replies.put(id, reply);
    JsonNode r;
    try {
      socket.sendText(json.writeValueAsString(call), true).get(CALL.toSeconds(), TimeUnit.SECONDS);
      r = reply.get(CALL.toSeconds(), TimeUnit.SECONDS);
    } catch (IOException | ExecutionException | TimeoutException e) {
      throw new AssertionError("DevTools call failed: " + method + " " + params, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      replies.remove(id);
    }
    if (r.has("error")) {
      throw new AssertionError("DevTools refused " + method + ": " + r.get("error"));
    }
    return r;
  }

  /**
   * Waits until {@code condition} (a JavaScript expression) is true in the page; while it throws
   * (say, the page is still loading) it counts as false.
   */
  void waitUntil(String condition, Duration timeout) {
    awaitTrue(() -> evaluate("(() => { try { return Boolean(" + condition + "); }"
        + " catch (e) { return false; } })()").asBoolean(), timeout, condition);
  }

  static void awaitTrue(BooleanSupplier condition, Duration timeout, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + timeout + ": " + what);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    socket.abort();
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(20, TimeUnit.SECONDS);
    }
  }

  /** Completes the reply to each call; events (messages without an id) are ignored. */
  private final class Replies implements WebSocket.Listener {
    private final StringBuilder message = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      message.append(data);
      if (last) {
        try {
          JsonNode m = json.readTree(message.toString());
          CompletableFuture<JsonNode> reply = m.has("id") ? replies.get(m.get("id").asInt()) : null;
          if (reply != null) {
            reply.complete(m);
          }
        } catch (IOException e) {
          replies.values().forEach(r -> r.completeExceptionally(e));
        }
        message.setLength(0);
      }
      ws.request(1);
      return null;
    }
  }
}
