package io.sediment.cli;

import io.sediment.om.tls.TlsMaterial;
import io.sediment.om.tls.TlsReloader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options of {@code sediment serve} that secure its listeners: TLS for gRPC, Recon and (in a
 * replicated group) the replicas' own traffic, and the refusal to listen beyond loopback
 * without it.
 */
final class ServeTlsOptions {

  @Option(names = "--tls-cert", paramLabel = "FILE",
      description = "Serve TLS (gRPC, Recon's HTTPS and, with --ha-id, replication) with this "
          + "PEM certificate chain, leaf first; with --tls-key.")
  Path cert;

  @Option(names = "--tls-key", paramLabel = "FILE",
      description = "The private key of --tls-cert (PEM: PKCS#8, PKCS#1 or SEC1, unencrypted).")
  Path key;

  @Option(names = "--tls-ca", paramLabel = "FILE",
      description = "Require gRPC clients to show a certificate this PEM CA signed (mutual TLS); "
          + "replicas also trust each other by it (needed with --ha-id and --tls-cert).")
  Path ca;

  @Option(names = "--tls-reload-seconds", paramLabel = "S", defaultValue = "60",
      description = "Read the --tls-* files again every S seconds and, when they changed and are "
          + "usable, serve them to new connections without a restart (0: read once at start; "
          + "default: ${DEFAULT-VALUE}).")
  int reloadSeconds;

  @Option(names = "--insecure-bind-any",
      description = "Allow a --host other than loopback without TLS and --auth: anyone who "
          + "reaches the port can read and change everything (in plaintext without TLS).")
  boolean insecureBindAny;

  /** Whether TLS is configured. */
  boolean enabled() {
    return cert != null;
  }

  /**
   * Refuses, as usage errors: --tls-cert without --tls-key (or the reverse), --tls-ca without
   * them, a replica with TLS but no CA to trust its peers by, and a non-loopback {@code host}
   * without TLS unless --insecure-bind-any.
   */
  void validate(CommandLine cmd, String host, boolean replica) {
    validate(cmd, host, replica, true);
  }

  /**
   * As {@link #validate(CommandLine, String, boolean)}; a non-loopback {@code host} also needs
   * authentication ({@code auth}) unless --insecure-bind-any.
   */
  void validate(CommandLine cmd, String host, boolean replica, boolean auth) {
    if ((cert == null) != (key == null)) {
      throw new CommandLine.ParameterException(cmd, "--tls-cert and --tls-key go together");
    }
    if (reloadSeconds < 0) {
      throw new CommandLine.ParameterException(cmd, "--tls-reload-seconds must be 0 or more");
    }
    if (ca != null && cert == null) {
      throw new CommandLine.ParameterException(cmd, "--tls-ca needs --tls-cert and --tls-key");
    }
    if (replica && cert != null && ca == null) {
      throw new CommandLine.ParameterException(cmd, "A replica serving TLS needs --tls-ca: the "
          + "CA its peers' certificates are checked against");
    }
    if (cert == null && !insecureBindAny && !loopback(host)) {
      throw new CommandLine.ParameterException(cmd, "Refusing to serve on " + host + " without "
          + "TLS: anyone who can reach it could read and change everything. Serve TLS "
          + "(--tls-cert, --tls-key), bind loopback (--host 127.0.0.1), or accept the risk with "
          + "--insecure-bind-any");
    }
    if (!auth && !insecureBindAny && !loopback(host)) {
      throw new CommandLine.ParameterException(cmd, "Refusing to serve on " + host + " without "
          + "authentication: anyone who can reach it could read and change everything. Serve "
          + "with --auth --admin USER, bind loopback (--host 127.0.0.1), or accept the risk "
          + "with --insecure-bind-any");
    }
  }

  /**
   * What reloads {@code material} every --tls-reload-seconds; null when that is 0 or there is
   * no material (try-with-resources skips a null).
   */
  TlsReloader reloader(TlsMaterial material) {
    return material == null || reloadSeconds == 0 ? null
        : TlsReloader.every(material, Duration.ofSeconds(reloadSeconds));
  }

  /** Whether every address {@code host} names is a loopback one. */
  static boolean loopback(String host) {
    try {
      InetAddress[] all = InetAddress.getAllByName(host);
      for (InetAddress a : all) {
        if (!a.isLoopbackAddress()) {
          return false;
        }
      }
      return all.length > 0;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /**
   * The key material, read now.
   *
   * @throws CliFailure naming the file that cannot be read or is not usable
   */
  TlsMaterial load() {
    return ClientTlsOptions.read(cert, key, ca);
  }
}
