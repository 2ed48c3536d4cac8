package io.sediment.cli;

import io.sediment.om.acl.AclText;
import io.sediment.proto.om.AclResource;
import io.sediment.proto.om.AddAclRequest;
import io.sediment.proto.om.GetAclRequest;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.RemoveAclRequest;
import io.sediment.proto.om.SetAclRequest;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sediment acl get|set|add|remove /VOLUME[/BUCKET[/KEY]] [ACL...]}: the ACL of a volume,
 * bucket or key (in an FSO bucket, a file or directory) on a running server (GetAcl, SetAcl,
 * AddAcl, RemoveAcl). Entries are written as Ozone's shell writes them,
 * {@code TYPE:NAME:RIGHTS[SCOPE]} ({@link AclText}), several per argument separated by commas;
 * every subcommand prints the target's ACL afterwards, one entry per line in that form. A bad
 * path or entry is a usage error (exit 2) and nothing is sent.
 */
@Command(name = "acl", mixinStandardHelpOptions = true,
    description = {"Show or change the ACL of a volume, bucket, key or key-name prefix (--prefix) "
        + "on a running server.",
        "ACL entries: TYPE:NAME:RIGHTS[SCOPE], e.g. user:alice:rw, group:dev:rl[DEFAULT], "
            + "world::r, anonymous::r; TYPE user, group, world or anonymous; RIGHTS letters "
            + "r(ead) w(rite) c(reate) l(ist) d(elete) x (read ACL) y (write ACL) a(ll) n(one); "
            + "SCOPE [ACCESS] (default) or [DEFAULT] (copied to what is created inside; "
            + "volumes, buckets and prefixes only)."},
    subcommands = {AclCommand.Get.class, AclCommand.Set.class, AclCommand.Add.class,
        AclCommand.Remove.class})
final class AclCommand implements Callable<Integer> {

  private static final String ENTRIES =
      "TYPE:NAME:RIGHTS[SCOPE] entries (several per argument with commas).";

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing subcommand: get, set, add or remove");
  }

  /**
   * What every acl subcommand takes: the target ({@code /VOLUME[/BUCKET[/KEY]]}, first
   * parameter; the leading '/' may be left out) and the server options.
   */
  static final class TargetOnServer {
    @Parameters(index = "0", paramLabel = "/VOLUME[/BUCKET[/KEY]]",
        description = "The volume, bucket or key (file or directory path in an FSO bucket).")
    String path;

    @CommandLine.Option(names = "--prefix", description = "KEY is a key-name prefix of an "
        + "OBJECT_STORE or LEGACY bucket, ending with '/' (e.g. /vol/bucket/logs/): its ACL "
        + "applies to every key it is the longest stored prefix of.")
    boolean prefix;

    @Mixin
    TargetOptions target;

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    /** The target of {@link #path}; a usage error if it names no volume. */
    AclResource resource() {
      String p = path.startsWith("/") ? path.substring(1) : path;
      String[] parts = p.split("/", 3);
      if (parts[0].isEmpty()) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "expected /VOLUME[/BUCKET[/KEY]]: '" + path + "'");
      }
      String bucket = parts.length > 1 ? parts[1] : "";
      String key = parts.length > 2 ? parts[2] : "";
      if (bucket.isEmpty() && !key.isEmpty()) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "expected /VOLUME[/BUCKET[/KEY]], the bucket is empty: '" + path + "'");
      }
      if (prefix && key.isEmpty()) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "--prefix needs /VOLUME/BUCKET/PREFIX/: '" + path + "'");
      }
      AclResource.Builder r = AclResource.newBuilder().setVolume(parts[0]).setBucket(bucket);
      return (prefix ? r.setPrefix(key) : r.setKey(key)).build();
    }

    /** Calls {@code rpc} on the server and prints the ACL it answers; returns the exit code. */
    int run(BiFunction<OmServiceGrpc.OmServiceBlockingStub, AclResource, List<OmAcl>> rpc) {
      AclResource r = resource();
      CommandLine cmd = spec.commandLine();
      return target.om(cmd, om -> {
        PrintWriter out = cmd.getOut();
        for (OmAcl a : rpc.apply(target.deadline(om), r)) {
          out.println(AclText.format(a));
        }
      });
    }
  }

  /**
   * The entries of an editing subcommand's arguments, each a comma list; a usage error naming the
   * bad one.
   */
  static List<OmAcl> parse(CommandLine cmd, List<String> texts) {
    List<OmAcl> acls = new ArrayList<>();
    for (String t : texts) {
      try {
        acls.addAll(AclText.parseList(t));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(cmd, e.getMessage());
      }
    }
    return acls;
  }

  @Command(name = "get", mixinStandardHelpOptions = true,
      description = "Print the ACL, one entry per line.")
  static final class Get implements Callable<Integer> {
    @Mixin
    TargetOnServer on;

    @Override
    public Integer call() {
      return on.run((om, r) -> om.getAcl(GetAclRequest.newBuilder().setTarget(r).build())
          .getAclsList());
    }
  }

  /**
   * An editing subcommand: the target, at least one entry, and the RPC that applies the entries
   * ({@link #edit}); prints the ACL the server answers.
   */
  abstract static class Edit implements Callable<Integer> {
    @Mixin
    TargetOnServer on;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "ACL", description = ENTRIES)
    List<String> texts = new ArrayList<>();

    /** Sends {@code acls} for {@code target}; returns the ACL the server answers. */
    abstract List<OmAcl> edit(OmServiceGrpc.OmServiceBlockingStub om, AclResource target,
        List<OmAcl> acls);

    @Override
    public Integer call() {
      List<OmAcl> acls = parse(on.spec.commandLine(), texts);
      return on.run((om, r) -> edit(om, r, acls));
    }
  }

  @Command(name = "set", mixinStandardHelpOptions = true,
      description = "Replace the ACL with the given entries, then print it.")
  static final class Set extends Edit {
    @Override
    List<OmAcl> edit(OmServiceGrpc.OmServiceBlockingStub om, AclResource target,
        List<OmAcl> acls) {
      return om.setAcl(SetAclRequest.newBuilder().setTarget(target).addAllAcls(acls).build())
          .getAclsList();
    }
  }

  @Command(name = "add", mixinStandardHelpOptions = true,
      description = "Grant the given entries' rights too, then print the ACL.")
  static final class Add extends Edit {
    @Override
    List<OmAcl> edit(OmServiceGrpc.OmServiceBlockingStub om, AclResource target,
        List<OmAcl> acls) {
      return om.addAcl(AddAclRequest.newBuilder().setTarget(target).addAllAcls(acls).build())
          .getAclsList();
    }
  }

  @Command(name = "remove", mixinStandardHelpOptions = true,
      description = "Take the given entries' rights away (entries left with none are dropped), "
          + "then print the ACL.")
  static final class Remove extends Edit {
    @Override
    List<OmAcl> edit(OmServiceGrpc.OmServiceBlockingStub om, AclResource target,
        List<OmAcl> acls) {
      return om.removeAcl(RemoveAclRequest.newBuilder().setTarget(target).addAllAcls(acls)
          .build()).getAclsList();
    }
  }
}
