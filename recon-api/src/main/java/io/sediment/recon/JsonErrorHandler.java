package io.sediment.recon;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own errors (a request it refuses before Recon sees it, such as an ambiguous path) as
 * the same JSON body Recon uses, without stack traces, with the {@link SecurityHeaders}.
 */
final class JsonErrorHandler extends ErrorHandler {

  JsonErrorHandler() {
    setShowStacks(false);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int code = response.getStatus() >= 400 ? response.getStatus() : 500;
    // A 5xx from Jetty means a failure escaped Recon's handler: the details stay in the log.
    Object message = code >= 500 ? "Internal error; see the server log"
        : request.getAttribute(ERROR_MESSAGE);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
    SecurityHeaders.apply(response.getHeaders());
    response.write(true, ByteBuffer.wrap(body(code, message == null ? null : message.toString())),
        callback);
    return true;
  }

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
    SecurityHeaders.apply(fields);
    return ByteBuffer.wrap(body(status, reason));
  }

  static byte[] body(int code, String message) {
    String m = message == null ? "Request refused" : message;
    StringBuilder escaped = new StringBuilder();
    for (char c : m.toCharArray()) {
      if (c == '"' || c == '\\') {
        escaped.append('\\').append(c);
      } else if (c < 0x20) {
        escaped.append(String.format("\\u%04x", (int) c));
      } else {
        escaped.append(c);
      }
    }
    return ("{\"code\":" + code + ",\"error\":\"HTTP " + code + "\",\"message\":\"" + escaped
        + "\"}").getBytes(StandardCharsets.UTF_8);
  }
}
