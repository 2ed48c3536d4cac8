package io.sediment.cli;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.sediment.om.tls.TlsMaterial;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --tls-ca}, {@code --tls-cert} and {@code --tls-key}: how a client command reaches a server
 * that serves TLS. Without any of them its channels are plaintext.
 */
final class ClientTlsOptions {

  @Option(names = "--tls-ca", paramLabel = "FILE",
      description = "Call the server over TLS, trusting the CA certificate(s) in this PEM file "
          + "(the CA that signed the server's certificate).")
  Path ca;

  @Option(names = "--tls-cert", paramLabel = "FILE",
      description = "This client's certificate (PEM; with --tls-key), for a server that requires "
          + "client certificates (serve --tls-ca).")
  Path cert;

  @Option(names = "--tls-key", paramLabel = "FILE",
      description = "The private key of --tls-cert (PEM, unencrypted).")
  Path key;

  private ChannelCredentials credentials;

  /** Whether the command calls over TLS. */
  boolean enabled() {
    return ca != null || cert != null;
  }

  /**
   * The credentials of the command's channels: TLS (trusting --tls-ca, else the JDK's default
   * CAs; showing --tls-cert) or plaintext. Read once.
   *
   * @throws CommandLine.ParameterException if --tls-cert and --tls-key are not given together
   * @throws CliFailure if a file cannot be read
   */
  ChannelCredentials credentials(CommandLine cmd) {
    if (credentials != null) {
      return credentials;
    }
    if ((cert == null) != (key == null)) {
      throw new CommandLine.ParameterException(cmd, "--tls-cert and --tls-key go together");
    }
    if (!enabled()) {
      credentials = InsecureChannelCredentials.create();
      return credentials;
    }
    credentials = read(cert, key, ca).channelCredentials();
    return credentials;
  }

  /**
   * {@link TlsMaterial#load}, read now.
   *
   * @throws CliFailure naming the file that cannot be read or is not usable
   */
  static TlsMaterial read(Path cert, Path key, Path ca) {
    try {
      return TlsMaterial.load(cert, key, ca);
    } catch (IOException e) {
      throw new CliFailure("Cannot read the TLS files: " + e.getMessage(), e);
    }
  }
}
