package io.sediment.recon;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The web page's files, served from the jar: a fixed list of URL paths, each mapped to one
 * classpath resource (so no request can name any other file), loaded once. The chart library is
 * the ECharts WebJar's minified build.
 */
final class StaticAssets {

  /** One file: its bytes and content type. */
  record Asset(byte[] bytes, String contentType) {
  }

  private static final String WEB = "io/sediment/recon/web/";
  private static final String ECHARTS_POM = "META-INF/maven/org.webjars.npm/echarts/pom.properties";

  private final Map<String, String[]> paths = Map.of(
      "/", new String[] {WEB + "index.html", "text/html; charset=utf-8"},
      "/index.html", new String[] {WEB + "index.html", "text/html; charset=utf-8"},
      "/app.js", new String[] {WEB + "app.js", "text/javascript; charset=utf-8"},
      "/app.css", new String[] {WEB + "app.css", "text/css; charset=utf-8"},
      "/lib/echarts.min.js", new String[] {null, "text/javascript; charset=utf-8"});
  private final Map<String, Asset> loaded = new ConcurrentHashMap<>();

  boolean has(String path) {
    return paths.containsKey(path);
  }

  /** The file at {@code path}, or null if there is none. */
  Asset get(String path) {
    String[] entry = paths.get(path);
    if (entry == null) {
      return null;
    }
    return loaded.computeIfAbsent(path, p -> new Asset(read(entry[0] != null ? entry[0] : echarts()),
        entry[1]));
  }

  private static String echarts() {
    Properties pom = new Properties();
    try (InputStream in = resource(ECHARTS_POM)) {
      pom.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "META-INF/resources/webjars/echarts/" + pom.getProperty("version") + "/dist/echarts.min.js";
  }

  private static byte[] read(String name) {
    try (InputStream in = resource(name)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static InputStream resource(String name) {
    InputStream in = StaticAssets.class.getClassLoader().getResourceAsStream(name);
    if (in == null) {
      throw new IllegalStateException("Missing resource in the jar: " + name);
    }
    return in;
  }
}
