package io.sediment.cli;

import io.grpc.StatusRuntimeException;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.auth.Administrators;
import io.sediment.om.auth.Authenticator;
import io.sediment.om.auth.GroupMapping;
import io.sediment.om.auth.Principal;
import io.sediment.om.auth.TokenVerifier;
import io.sediment.recon.ReconCallers;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The options of {@code sediment serve} that decide who may call it: {@code --auth} (every call
 * authenticated by a bearer token or a client certificate), the administrators, and the groups
 * file.
 */
final class ServeAuthOptions {

  @Option(names = "--auth",
      description = "Authenticate every call: a bearer token (`sediment token create`) or a "
          + "client certificate (--tls-ca), else UNAUTHENTICATED. Needs --admin or "
          + "--admin-group.")
  boolean auth;

  @Option(names = "--admin", paramLabel = "USER", split = ",",
      description = "An administrator (repeatable, or comma-separated): a token's principal or "
          + "a client certificate's CN. Replicas' certificates must name administrators too.")
  List<String> admins = new ArrayList<>();

  @Option(names = "--admin-group", paramLabel = "GROUP", split = ",",
      description = "A group whose members are administrators (repeatable, or "
          + "comma-separated; see --groups-file).")
  List<String> adminGroups = new ArrayList<>();

  @Option(names = "--groups-file", paramLabel = "FILE",
      description = "Users' groups, lines of 'user: group1, group2' ('#' starts a comment).")
  Path groupsFile;

  /** Whether callers are authenticated. */
  boolean enabled() {
    return auth;
  }

  /**
   * Refuses, as usage errors: --auth without an administrator, administrators or a groups file
   * without --auth (they would be ignored), a blank name, and a replica with --auth but no TLS
   * (replicas authenticate to each other by certificate).
   */
  void validate(CommandLine cmd, boolean replica, boolean tls) {
    for (String n : admins) {
      if (n.isBlank()) {
        throw new CommandLine.ParameterException(cmd, "--admin must not be blank");
      }
    }
    for (String n : adminGroups) {
      if (n.isBlank()) {
        throw new CommandLine.ParameterException(cmd, "--admin-group must not be blank");
      }
    }
    if (!auth) {
      if (!admins.isEmpty() || !adminGroups.isEmpty() || groupsFile != null) {
        throw new CommandLine.ParameterException(cmd, "--admin, --admin-group and "
            + "--groups-file need --auth");
      }
      return;
    }
    if (admins.isEmpty() && adminGroups.isEmpty()) {
      throw new CommandLine.ParameterException(cmd, "--auth needs at least one administrator: "
          + "--admin USER or --admin-group GROUP");
    }
    if (replica && !tls) {
      throw new CommandLine.ParameterException(cmd, "A replica with --auth needs TLS "
          + "(--tls-cert, --tls-key, --tls-ca): replicas authenticate to each other by "
          + "certificate");
    }
  }

  /** The administrators (call only with --auth). */
  Administrators administrators() {
    return new Administrators(Set.copyOf(admins), Set.copyOf(adminGroups));
  }

  /**
   * The groups file, read now (no file: no one is in a group).
   *
   * @throws CliFailure naming the file, and the line of a bad one
   */
  GroupMapping groups() {
    if (groupsFile == null) {
      return GroupMapping.NONE;
    }
    try {
      return GroupMapping.load(groupsFile);
    } catch (IOException e) {
      throw new CliFailure("Cannot use the groups file: " + e.getMessage(), e);
    }
  }

  /** How the server authenticates over {@code store}'s tokens and {@code groups}. */
  static Authenticator authenticator(OmMetadataStore store, GroupMapping groups) {
    return new Authenticator(new TokenVerifier(store, Clock.systemUTC()), groups);
  }

  /**
   * Who may read Recon: an administrator's bearer token (401 without a valid one, 403 for anyone
   * else), checked as the gRPC server checks a call's token. Call only with --auth.
   */
  ReconCallers reconCallers(OmMetadataStore store, GroupMapping groups) {
    Authenticator authenticator = authenticator(store, groups);
    Administrators administrators = administrators();
    return header -> {
      if (header == null) {
        return ReconCallers.Verdict.UNAUTHENTICATED;
      }
      try {
        Principal p = authenticator.authenticate(header, (X509Certificate[]) null);
        return administrators.contains(p) ? ReconCallers.Verdict.ALLOWED
            : ReconCallers.Verdict.FORBIDDEN;
      } catch (StatusRuntimeException refused) {
        return ReconCallers.Verdict.UNAUTHENTICATED;
      }
    };
  }

  /** The start-up line that says who may call. */
  String describe(boolean clientCertificates) {
    if (!auth) {
      return null;
    }
    return "Authenticated: every call needs a bearer token" + (clientCertificates
        ? " or a client certificate" : "") + "; administrators: " + String.join(", ", admins)
        + (adminGroups.isEmpty() ? "" : (admins.isEmpty() ? "" : ", ") + "groups "
            + String.join(", ", adminGroups)) + ".";
  }
}
