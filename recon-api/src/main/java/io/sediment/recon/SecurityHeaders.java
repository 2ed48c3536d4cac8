package io.sediment.recon;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The headers every Recon response carries, so that a browser runs the page's own scripts and
 * styles only, never sniffs a content type, never shows Recon inside another site's frame and
 * never tells another site which Recon page linked to it. Added before the wrapped handler runs;
 * Jetty's own error answers add them through {@link JsonErrorHandler}. Stateless.
 */
final class SecurityHeaders extends Handler.Wrapper {

  /**
   * The page's policy: everything from Recon itself (the page, app.js, app.css, the chart
   * library, the JSON API) and nothing inline but style attributes: no inline script, no
   * {@code <style>} element, no plugin, no other base or form target, no framing. The page's own
   * files use no inline style; the chart library (ECharts' SVG renderer and its tooltip) writes
   * {@code style} attributes with computed values, which no hash can cover, hence
   * {@code style-src-attr 'unsafe-inline'}. A browser without CSP level 3 falls back to
   * {@code style-src 'self'} there: charts lose their fonts, nothing more is allowed.
   */
  static final String CONTENT_SECURITY_POLICY = "default-src 'self'; style-src 'self'; "
      + "style-src-attr 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'none'; "
      + "frame-ancestors 'none'";

  SecurityHeaders(Handler wrapped) {
    super(wrapped);
  }

  /** Puts the security headers on {@code headers} (replacing any earlier values). */
  static void apply(HttpFields.Mutable headers) {
    headers.put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("X-Frame-Options", "DENY");
    headers.put("Referrer-Policy", "no-referrer");
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    apply(response.getHeaders());
    return super.handle(request, response, callback);
  }
}
