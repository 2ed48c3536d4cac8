package io.sediment.cli;

import io.sediment.om.insight.ObjectFields;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.DeleteVolumeRequest;
import io.sediment.proto.om.GetVolumeRequest;
import io.sediment.proto.om.ListVolumesRequest;
import io.sediment.proto.om.ListVolumesResponse;
import io.sediment.proto.om.SetVolumePropertiesRequest;
import io.sediment.proto.om.VolumeInfo;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sediment volume create|info|list|update|delete}: the volumes of a running server
 * (CreateVolume, GetVolume, ListVolumes paged to the end, SetVolumeProperties, DeleteVolume), as
 * Ozone's {@code ozone sh volume}. A volume prints in {@link ObjectFields}' schema.
 */
@Command(name = "volume", mixinStandardHelpOptions = true,
    description = "Create, show, list, update or delete the volumes of a running server.",
    subcommands = {VolumeCommand.Create.class, VolumeCommand.Info.class, VolumeCommand.List.class,
        VolumeCommand.Update.class, VolumeCommand.Delete.class})
final class VolumeCommand implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing subcommand: create, info, list, update or delete");
  }

  /** A subcommand on one volume, the first parameter. */
  abstract static class OnVolume extends ShellCommand {
    @Parameters(index = "0", paramLabel = "VOLUME", description = "The volume (a leading '/' "
        + "is ignored).")
    String path;

    ObjectAddress at;

    @Override
    void check() {
      at = ObjectAddress.parse(cmd(), path, ObjectAddress.Depth.VOLUME);
    }
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = {"Create a volume, then print it.",
          "ALREADY_EXISTS (exit 1) if it exists; set quotas with `volume update`."})
  static final class Create extends OnVolume {
    @Option(names = {"-u", "--user"}, paramLabel = "OWNER",
        description = "Its owner and admin (default: this user, ${DEFAULT-VALUE}).",
        defaultValue = "${sys:user.name}")
    String owner;

    @Override
    void run() {
      VolumeInfo v = om().createVolume(CreateVolumeRequest.newBuilder().setVolume(at.volume())
          .setOwner(nz(owner)).build()).getVolume();
      done(ObjectFields.volume(v), "Created volume " + v.getName() + " (owner " + v.getOwner()
          + ")");
    }
  }

  @Command(name = "info", mixinStandardHelpOptions = true,
      description = "Print a volume: one `field value` line per field, or JSON.")
  static final class Info extends OnVolume {
    @Override
    void run() {
      print(ObjectFields.volume(om().getVolume(GetVolumeRequest.newBuilder()
          .setVolume(at.volume()).build()).getVolume()));
    }
  }

  @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true,
      description = {"List volumes in name order, paging through to the end.",
          "Prints `DATE TIME OWNER NAME` (creation time, UTC); --json one object per line."})
  static final class List extends ShellCommand {
    @Option(names = {"-p", "--prefix"}, description = "Only names starting with this.")
    String prefix;

    @Option(names = {"-s", "--start"}, paramLabel = "NAME",
        description = "List names after this one (exclusive).")
    String start;

    @Override
    void run() {
      String after = nz(start);
      ListVolumesResponse r;
      do {
        r = om().listVolumes(ListVolumesRequest.newBuilder().setPrefix(nz(prefix))
            .setStartAfter(after).build());
        for (VolumeInfo v : r.getVolumesList()) {
          row(ObjectFields.volume(v), String.format("%s  %-20s %s",
              LsCommand.TIME.format(Instant.ofEpochMilli(v.getCreationTime())), v.getOwner(),
              v.getName()));
          after = v.getName();
        }
      } while (r.getTruncated() && r.getVolumesCount() > 0);
    }
  }

  @Command(name = "update", mixinStandardHelpOptions = true,
      description = {"Change a volume's owner or quotas (only those given), then print it.",
          "A quota of 0 is unlimited."})
  static final class Update extends OnVolume {
    @CommandLine.Mixin
    PropertyUpdate update;

    private final SetVolumePropertiesRequest.Builder req = SetVolumePropertiesRequest.newBuilder();

    @Override
    void check() {
      super.check();
      req.setVolume(at.volume());
      update.applyTo(cmd(), req::setOwner, req::setQuotaInBytes, req::setQuotaInNamespace);
    }

    @Override
    void run() {
      VolumeInfo v = om().setVolumeProperties(req.build()).getVolume();
      done(ObjectFields.volume(v), "Updated volume " + v.getName());
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true,
      description = "Delete an empty volume (FAILED_PRECONDITION, exit 1, while it has buckets).")
  static final class Delete extends OnVolume {
    @Override
    void run() {
      om().deleteVolume(DeleteVolumeRequest.newBuilder().setVolume(at.volume()).build());
      deleted(at, "Deleted volume " + at.volume());
    }
  }
}
