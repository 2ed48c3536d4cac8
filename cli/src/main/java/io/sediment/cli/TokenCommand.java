package io.sediment.cli;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.auth.BearerToken;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.proto.om.AuthToken;
import io.sediment.proto.om.CreateTokenRequest;
import io.sediment.proto.om.ListTokensRequest;
import io.sediment.proto.om.ListTokensResponse;
import io.sediment.proto.om.RevokeTokenRequest;
import io.sediment.proto.om.TokenInfo;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sediment token}: the bearer tokens a server accepts. */
@Command(name = "token", mixinStandardHelpOptions = true,
    description = {"Make, revoke and list the bearer tokens a server started with `serve --auth` "
        + "accepts (calls to the server need an administrator's credentials).",
        "A client shows its token with --token-file FILE or the SEDIMENT_TOKEN environment "
            + "variable. The server keeps a salted hash of each token, never the token."},
    subcommands = {TokenCommand.Create.class, TokenCommand.Revoke.class, TokenCommand.List.class})
final class TokenCommand implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Name a subcommand: create, revoke, list");
  }

  /** {@code sediment token create}: prints the token (stdout, alone) and what it is (stderr). */
  @Command(name = "create", mixinStandardHelpOptions = true,
      description = {"Make a bearer token for --principal and print it: on standard output, "
          + "alone on its line, the only time it is shown (e.g. `sediment token create "
          + "--principal alice > alice.token`).",
          "Against a running server (--target, as an administrator), or, to make the first "
              + "administrator's token, straight into the stopped single-node store of --data."})
  static final class Create extends ClientCommand {

    @Option(names = "--principal", paramLabel = "USER", required = true,
        description = "Who a caller showing the token is (checked against --admin, the groups "
            + "file and the ACLs like a certificate's name).")
    String principal;

    @Option(names = "--ttl", paramLabel = "DURATION", converter = Durations.class,
        description = "How long the token is accepted, e.g. 30d or 12h (default: until revoked).")
    Duration ttl;

    @Option(names = "--data", paramLabel = "DIR",
        description = "Write the token into the store of this data directory (DIR/om) instead "
            + "of asking a server: the store must not be open in a running server, and must "
            + "not be a replica's.")
    Path data;

    @Override
    public Integer call() {
      CommandLine cmd = spec.commandLine();
      if (principal.isBlank()) {
        throw new CommandLine.ParameterException(cmd, "--principal must not be blank");
      }
      if (data == null) {
        CreateTokenRequest req = CreateTokenRequest.newBuilder().setPrincipal(principal)
            .setTtlMillis(ttl == null ? 0 : ttl.toMillis()).build();
        return adminCall(admin -> admin.createToken(req),
            r -> print(cmd, r.getToken(), r.getInfo()));
      }
      if (cmd.getParseResult().hasMatchedOption("--target")) {
        throw new CommandLine.ParameterException(cmd, "--data and --target exclude each other: "
            + "a token is made either in a stopped store or by a running server");
      }
      try (OmMetadataStore store = StoreDirs.open(data.toAbsolutePath().normalize(),
          OmStoreOptions.defaults())) {
        if (store.appliedLog().lastApplied().isPresent()) {
          throw new CliFailure("The store under " + data + " is a replica's: make tokens "
              + "through the group (sediment token create --target ...), so every replica "
              + "has them");
        }
        BearerToken.Issued issued = BearerToken.issue();
        AuthToken row = store.authTokens().create(issued.id(), principal, issued.salt(),
            issued.hash(), ttl);
        print(cmd, issued.token(), io.sediment.om.grpc.TokenRpcs.info(row));
      }
      return 0;
    }

    private static void print(CommandLine cmd, String token, TokenInfo info) {
      cmd.getOut().println(token);
      cmd.getOut().flush();
      PrintWriter err = cmd.getErr();
      err.printf("Token %s for '%s', %s. Shown this once: keep it where only its user can "
          + "read it, and call with --token-file FILE (or SEDIMENT_TOKEN).%n", info.getId(),
          info.getPrincipal(), info.getExpiresMillis() == 0 ? "valid until revoked"
              : "valid until " + Instant.ofEpochMilli(info.getExpiresMillis()));
      err.flush();
    }
  }

  /** {@code sediment token revoke --id ID}. */
  @Command(name = "revoke", mixinStandardHelpOptions = true,
      description = "Revoke a token by its id (the part after sdt_, as `token list` shows it): "
          + "calls showing it are refused from now on.")
  static final class Revoke extends ClientCommand {

    @Option(names = "--id", paramLabel = "ID", required = true, description = "The token's id.")
    String id;

    @Override
    public Integer call() {
      RevokeTokenRequest req = RevokeTokenRequest.newBuilder().setId(id).build();
      return adminCall(admin -> admin.revokeToken(req), r -> spec.commandLine().getOut()
          .printf("Revoked token %s of '%s'.%n", r.getInfo().getId(), r.getInfo().getPrincipal()));
    }
  }

  /** {@code sediment token list}: one line per token, never a secret. */
  @Command(name = "list", mixinStandardHelpOptions = true,
      description = "List the tokens: id, principal, created, expires, state (never a secret).")
  static final class List extends ClientCommand {

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      return target.admin(spec.commandLine(), admin -> {
        out.printf("%-24s  %-20s  %-24s  %-24s  %s%n", "ID", "PRINCIPAL", "CREATED", "EXPIRES",
            "STATE");
        String after = "";
        long now = System.currentTimeMillis();
        while (true) {
          ListTokensResponse page = target.deadline(admin).listTokens(
              ListTokensRequest.newBuilder().setStartAfter(after).build());
          for (TokenInfo t : page.getTokensList()) {
            boolean expired = t.getExpiresMillis() != 0 && now >= t.getExpiresMillis();
            out.printf("%-24s  %-20s  %-24s  %-24s  %s%n", t.getId(), t.getPrincipal(),
                Instant.ofEpochMilli(t.getCreatedMillis()), t.getExpiresMillis() == 0 ? "never"
                    : Instant.ofEpochMilli(t.getExpiresMillis()),
                t.getRevoked() ? "revoked" : expired ? "expired" : "active");
            after = t.getId();
          }
          if (!page.getTruncated() || page.getTokensCount() == 0) {
            return;
          }
        }
      });
    }
  }
}
