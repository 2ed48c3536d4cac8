package io.sediment.recon;

import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * Where a {@link ReconServer} listens.
 *
 * @param host the address to bind; {@value #DEFAULT_HOST} by default (nothing else on the machine
 *     or network can reach it)
 * @param port the TCP port; {@value #DEFAULT_PORT} by default, 0 for an ephemeral one
 * @param threads the most request threads (at least 4)
 * @param tls serve HTTPS with this context's key (its server certificate); null for plain HTTP
 * @param callers who may read it ({@link ReconCallers}); null for everyone who reaches it
 */
public record ReconConfig(String host, int port, int threads, SSLContext tls,
    ReconCallers callers) {

  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 9888;
  public static final int DEFAULT_THREADS = 8;

  public ReconConfig {
    Objects.requireNonNull(host, "host");
    if (host.isBlank()) {
      throw new IllegalArgumentException("host must not be blank");
    }
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be in [0, 65535]: " + port);
    }
    if (threads < 4) {
      throw new IllegalArgumentException("threads must be at least 4: " + threads);
    }
  }

  /** Plain HTTP, open to everyone who reaches it. */
  public ReconConfig(String host, int port, int threads) {
    this(host, port, threads, null, null);
  }

  /** 127.0.0.1:9888. */
  public static ReconConfig defaults() {
    return new ReconConfig(DEFAULT_HOST, DEFAULT_PORT, DEFAULT_THREADS);
  }

  public ReconConfig withPort(int p) {
    return new ReconConfig(host, p, threads, tls, callers);
  }

  public ReconConfig withHost(String h) {
    return new ReconConfig(h, port, threads, tls, callers);
  }

  /** Serve HTTPS with {@code context}'s server certificate (null: plain HTTP). */
  public ReconConfig withTls(SSLContext context) {
    return new ReconConfig(host, port, threads, context, callers);
  }

  /** Answer only the requests {@code c} admits (null: everyone who reaches it). */
  public ReconConfig withCallers(ReconCallers c) {
    return new ReconConfig(host, port, threads, tls, c);
  }
}
