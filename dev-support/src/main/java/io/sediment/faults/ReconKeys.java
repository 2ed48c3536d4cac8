package io.sediment.faults;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads every key of a bucket through Recon's {@code /api/v1/keys/listKeys}, paging with
 * {@code prevKey}. The fields it needs are picked out of the JSON with patterns (the campaign has
 * no JSON library; Recon writes key names as plain JSON strings).
 */
final class ReconKeys {

  private static final Pattern KEY = Pattern.compile("\"key\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final Pattern LAST_KEY =
      Pattern.compile("\"lastKey\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final Pattern HAS_MORE = Pattern.compile("\"hasMore\"\\s*:\\s*true");
  private static final int MAX_PAGES = 100;

  /** An answer other than 200: the status and the start of the body. */
  static final class HttpError extends Exception {
    HttpError(String message) {
      super(message);
    }
  }

  private ReconKeys() {
  }

  /** Keys under {@code /volume/bucket} as Recon's {@code key} field shows them. */
  static List<String> list(String baseUrl, String volume, String bucket)
      throws IOException, InterruptedException, HttpError {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    List<String> out = new ArrayList<>();
    String prev = "";
    for (int page = 0; page < MAX_PAGES; page++) {
      String url = baseUrl + "/api/v1/keys/listKeys?limit=-1&startPrefix="
          + enc("/" + volume + "/" + bucket) + (prev.isEmpty() ? "" : "&prevKey=" + enc(prev));
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url))
          .timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString());
      String body = r.body();
      if (r.statusCode() != 200) {
        throw new HttpError("HTTP " + r.statusCode() + ": "
            + body.substring(0, Math.min(160, body.length())).replaceAll("\\s+", " "));
      }
      Matcher m = KEY.matcher(body);
      while (m.find()) {
        out.add(m.group(1));
      }
      if (!HAS_MORE.matcher(body).find()) {
        return out;
      }
      Matcher last = LAST_KEY.matcher(body);
      if (!last.find()) {
        throw new HttpError("hasMore without lastKey");
      }
      prev = last.group(1);
    }
    throw new HttpError("listKeys did not end after " + MAX_PAGES + " pages");
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
