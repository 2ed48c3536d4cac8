package io.sediment.cli;

import com.google.protobuf.ByteString;
import io.sediment.om.insight.ObjectFields;
import io.sediment.proto.om.ListOpenFilesRequest;
import io.sediment.proto.om.ListOpenFilesResponse;
import io.sediment.proto.om.OpenKeyEntry;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sediment openkeys list VOLUME/BUCKET}: the keys (OBJECT_STORE, LEGACY) or files (FSO)
 * open for writing in a bucket of a running server (ListOpenFiles paged to the end). A row is
 * {@link ObjectFields#key}' schema, named by its key or full path, plus {@code clientId}.
 */
@Command(name = "openkeys", mixinStandardHelpOptions = true,
    description = "List the keys or files open for writing in a bucket of a running server.",
    subcommands = {OpenKeysCommand.List.class})
final class OpenKeysCommand implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand: list");
  }

  @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true,
      description = {"List a bucket's open keys (FSO: open files) in table order, paging "
          + "through to the end.",
          "Prints `DATE TIME CLIENT_ID KEY` (opening, UTC); --json one object per line. "
              + "NOT_FOUND (exit 1) if the volume or bucket is missing."})
  static final class List extends ShellCommand {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET", description = "The bucket.")
    String path;

    private ObjectAddress at;

    @Override
    void check() {
      at = ObjectAddress.parse(cmd(), path, ObjectAddress.Depth.BUCKET);
    }

    @Override
    void run() {
      ByteString token = ByteString.EMPTY;
      ListOpenFilesResponse r;
      do {
        r = om().listOpenFiles(ListOpenFilesRequest.newBuilder().setVolume(at.volume())
            .setBucket(at.bucket()).setPageToken(token).build());
        for (OpenKeyEntry e : r.getOpenKeysList()) {
          Map<String, Object> fields = ObjectFields.key(e.getKey(), e.getPath());
          fields.put("clientId", e.getClientId());
          row(fields, String.format("%s  %20d %s",
              LsCommand.TIME.format(Instant.ofEpochMilli(e.getKey().getCreationTime())),
              e.getClientId(), e.getPath()));
        }
        token = r.getNextPageToken();
      } while (r.getTruncated());
    }
  }
}
