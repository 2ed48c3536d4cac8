package io.sediment.cli;

import io.grpc.CallCredentials;
import io.grpc.ChannelCredentials;
import io.grpc.CompositeChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.sediment.om.auth.BearerCallCredentials;
import io.sediment.om.tls.TlsMaterial;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --tls-ca}, {@code --tls-cert} and {@code --tls-key}: how a client command reaches a server
 * that serves TLS. Without any of them its channels are plaintext. And {@code --token-file} (else
 * the {@value #TOKEN_ENV} environment variable): the bearer token a server that authenticates its
 * callers is shown, sent over TLS, or in plaintext to a loopback address only
 * ({@link BearerCallCredentials}).
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

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "Authenticate with the bearer token in this file (what `sediment token "
          + "create` printed); else with the " + TOKEN_ENV + " environment variable, if set. "
          + "Sent over TLS only, or in plaintext to a loopback address.")
  Path tokenFile;

  /** The environment variable a bearer token is taken from without --token-file. */
  static final String TOKEN_ENV = "SEDIMENT_TOKEN";

  /** Reads the environment; tests replace it. */
  static UnaryOperator<String> environment = System::getenv;

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
    ChannelCredentials channel;
    if (!enabled()) {
      channel = InsecureChannelCredentials.create();
    } else {
      channel = read(cert, key, ca).channelCredentials();
    }
    CallCredentials token = token();
    credentials = token == null ? channel : CompositeChannelCredentials.create(channel, token);
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

  /**
   * The bearer token of --token-file, else of {@value #TOKEN_ENV}, or null for none.
   *
   * @throws CliFailure if the file cannot be read or holds no token (never showing its content)
   */
  private CallCredentials token() {
    String text;
    String from;
    if (tokenFile != null) {
      from = "--token-file " + tokenFile;
      try {
        text = Files.readString(tokenFile).strip();
      } catch (IOException e) {
        throw new CliFailure("Cannot read the token file " + tokenFile + ": " + e, e);
      }
    } else {
      from = "the environment variable " + TOKEN_ENV;
      text = environment.apply(TOKEN_ENV);
      if (text == null || text.isBlank()) {
        return null;
      }
      text = text.strip();
    }
    try {
      return new BearerCallCredentials(text);
    } catch (IllegalArgumentException e) {
      throw new CliFailure("No bearer token in " + from + ": expected one word, as "
          + "`sediment token create` printed it");
    }
  }
}
