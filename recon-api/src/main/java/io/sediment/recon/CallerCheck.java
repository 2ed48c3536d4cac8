package io.sediment.recon;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Lets through only the requests {@link ReconCallers} admits: 401 with
 * {@code WWW-Authenticate: Bearer realm="sediment-recon"} for a request without valid
 * credentials, 403 for an authenticated caller who may not read Recon. The answer names no
 * credential. Stateless beyond its callers.
 */
final class CallerCheck extends Handler.Wrapper {

  static final int UNAUTHENTICATED = 401;
  static final int FORBIDDEN = 403;

  private final ReconCallers callers;

  CallerCheck(Handler wrapped, ReconCallers callers) {
    super(wrapped);
    this.callers = callers;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    ReconCallers.Verdict v = callers.admit(request.getHeaders().get(HttpHeader.AUTHORIZATION));
    if (v == ReconCallers.Verdict.ALLOWED) {
      return super.handle(request, response, callback);
    }
    String body;
    if (v == ReconCallers.Verdict.UNAUTHENTICATED) {
      response.setStatus(UNAUTHENTICATED);
      response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"sediment-recon\"");
      body = "Unauthenticated: send 'Authorization: Bearer <token>' with a valid token\n";
    } else {
      response.setStatus(FORBIDDEN);
      body = "Forbidden: Recon is for administrators\n";
    }
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
    return true;
  }
}
