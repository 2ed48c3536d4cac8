package io.sediment.recon;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.prometheus.metrics.core.metrics.Counter;
import io.sediment.db.StoreClosedException;
import io.sediment.om.core.OmException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes one request: {@code /api/v1/...} to {@link ReconApi}, {@code /prom} to the metrics
 * scrape, anything else to the {@link StaticAssets}; HEAD as GET. Maps failures to JSON errors: 405
 * for a method other than GET or HEAD, 404 for an unknown path or a missing object, 400 for a bad parameter or
 * a request too large to answer, 503 when the store is closing ({@link StoreClosedException}), 500
 * (with a generic message; the details and the stack go to the log, once) otherwise, any other
 * {@link IllegalStateException} included.
 */
final class ReconHandler extends Handler.Abstract {

  private static final Logger LOG = LoggerFactory.getLogger(ReconHandler.class);
  static final String API = "/api/v1";
  private static final String JSON = "application/json; charset=utf-8";

  private final Map<String, Function<Params, Object>> routes;
  private final Supplier<byte[]> metrics;
  private final Counter requests;
  private final StaticAssets assets = new StaticAssets();
  private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  ReconHandler(ReconApi api, Supplier<byte[]> metrics, Counter requests) {
    this.routes = api.routes();
    this.metrics = metrics;
    this.requests = requests;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String path = Request.getPathInContext(request);
    String endpoint = "other";
    int status;
    String type;
    byte[] body;
    try {
      if (path.startsWith(API + "/") && routes.containsKey(path.substring(API.length()))) {
        endpoint = path;
      } else if (path.equals("/prom") || assets.has(path)) {
        endpoint = path.equals("/prom") ? path : "static";
      }
      if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
        response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
        throw new ApiException(405, "Method " + request.getMethod() + " is not allowed: this API"
            + " is read-only and serves GET (and HEAD) only");
      }
      if (path.startsWith(API + "/")) {
        Function<Params, Object> route = routes.get(path.substring(API.length()));
        if (route == null) {
          throw new ApiException(404, "No such endpoint: " + path);
        }
        body = json.writeValueAsBytes(route.apply(params(request)));
        status = 200;
        type = JSON;
      } else if (path.equals("/prom")) {
        body = metrics.get();
        status = 200;
        type = "text/plain; version=0.0.4; charset=utf-8";
      } else {
        StaticAssets.Asset asset = assets.get(path);
        if (asset == null) {
          throw new ApiException(404, "No such page or endpoint: " + path);
        }
        body = asset.bytes();
        status = 200;
        type = asset.contentType();
      }
    } catch (ApiException e) {
      status = e.status();
      body = error(status, e.getMessage());
      type = JSON;
    } catch (OmException e) {
      status = switch (e.code()) {
        case INVALID_ARGUMENT, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, UNIMPLEMENTED -> 400;
        case NOT_FOUND -> 404;
        case UNAVAILABLE -> 503;
        default -> 500;
      };
      body = error(status, status == 500 ? "Internal error; see the server log" : e.getMessage());
      if (status == 500) {
        LOG.warn("Recon: {} failed", path, e);
      }
      type = JSON;
    } catch (StoreClosedException e) {
      // A closing or closed store; any other IllegalStateException is a bug: 500 below.
      status = 503;
      body = error(status, "The store is not available: " + e.getMessage());
      type = JSON;
    } catch (RuntimeException | JsonProcessingException e) {
      LOG.warn("Recon: {} failed", path, e);
      status = 500;
      body = error(status, "Internal error; see the server log");
      type = JSON;
    }
    requests.labelValues(endpoint, Integer.toString(status)).inc();
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    // HEAD: the answer GET would get, its headers only (Jetty sends no body for a HEAD request).
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }

  private static Params params(Request request) {
    Fields fields;
    try {
      fields = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
    } catch (RuntimeException e) {
      throw ApiException.badRequest("Malformed query string: " + e.getMessage());
    }
    Map<String, List<String>> values = new LinkedHashMap<>();
    for (Fields.Field f : fields) {
      values.put(f.getName(), f.getValues());
    }
    return new Params(values);
  }

  private byte[] error(int status, String message) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("code", status);
    e.put("error", switch (status) {
      case 400 -> "Bad Request";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 503 -> "Service Unavailable";
      default -> "Internal Server Error";
    });
    e.put("message", message);
    try {
      return json.writeValueAsBytes(e);
    } catch (JsonProcessingException impossible) {
      return ("{\"code\":" + status + "}").getBytes(StandardCharsets.UTF_8);
    }
  }
}
