package io.sediment.recon;

import com.google.common.net.HostAndPort;
import com.google.common.net.InetAddresses;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Refuses, with 403 and a short text, every request whose {@code Host} header does not name the
 * loopback interface: {@code localhost}, an address in 127.0.0.0/8 or {@code [::1]}, each with or
 * without a port. A Recon bound to loopback is then out of reach of a web page that has pointed
 * its own DNS name at 127.0.0.1 (DNS rebinding): the browser sends that name as the Host. Names are
 * never resolved: only the literal text decides. Stateless.
 */
final class LoopbackHosts extends Handler.Wrapper {

  static final int REFUSED = 403;

  LoopbackHosts(Handler wrapped) {
    super(wrapped);
  }

  /**
   * Whether {@code host}, a Host header's value ({@code name[:port]}, {@code [v6][:port]}), names
   * the loopback interface; false for null, empty or malformed values.
   */
  static boolean isLoopback(String host) {
    if (host == null || host.isEmpty()) {
      return false;
    }
    String name;
    try {
      HostAndPort hp = HostAndPort.fromString(host);
      name = hp.getHost();
      if (hp.hasPort() && (hp.getPort() < 0 || hp.getPort() > 65_535)) {
        return false;
      }
    } catch (IllegalArgumentException malformed) {
      return false;
    }
    if (InetAddresses.isInetAddress(name)) {
      // A bare IPv6 literal without brackets ("::1") is not a valid Host; a bracketed one is.
      if (name.contains(":") && !host.startsWith("[")) {
        return false;
      }
      return InetAddresses.forString(name).isLoopbackAddress();
    }
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.equals("localhost") || lower.equals("localhost.");
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (isLoopback(request.getHeaders().get(HttpHeader.HOST))) {
      return super.handle(request, response, callback);
    }
    response.setStatus(REFUSED);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    byte[] body = ("Refused: this Recon listens on loopback and answers only requests for "
        + "localhost, 127.0.0.0/8 or [::1] (the Host header named another host)\n")
        .getBytes(StandardCharsets.UTF_8);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }
}
