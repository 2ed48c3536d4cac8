package io.sediment.cli;

import com.google.protobuf.ByteString;
import io.sediment.om.core.ReplicationConfigs;
import io.sediment.om.core.ReplicationText;
import io.sediment.om.insight.ObjectFields;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitFileRequest;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CreateFileRequest;
import io.sediment.proto.om.CreateFileResponse;
import io.sediment.proto.om.DeleteFileRequest;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.FileStatus;
import io.sediment.proto.om.GetBucketRequest;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListKeysResponse;
import io.sediment.proto.om.ListStatusRequest;
import io.sediment.proto.om.ListStatusResponse;
import io.sediment.proto.om.LookupFileRequest;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import io.sediment.proto.om.RenameKeyRequest;
import io.sediment.proto.om.RenameRequest;
import io.sediment.proto.om.ReplicationConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sediment key create|info|list|rename|delete}: the keys of a running server, as Ozone's
 * {@code ozone sh key}. Sediment keeps metadata only, so a key's content is its size, replication
 * config and user metadata. In an OBJECT_STORE or LEGACY bucket a key is a keyTable row (OpenKey and CommitKey,
 * LookupKey, ListKeys, RenameKey, DeleteKey); in a FILE_SYSTEM_OPTIMIZED bucket it is a file
 * (CreateFile and CommitFile, LookupFile, ListStatus, Rename, DeleteFile): each subcommand asks
 * for the bucket's layout first. A key prints in {@link ObjectFields}' schema.
 */
@Command(name = "key", mixinStandardHelpOptions = true,
    description = {"Create, show, list, rename or delete the keys of a running server.",
        "Sediment keeps metadata only: a key is its size, replication config and user "
            + "metadata. In an FSO bucket a key is a file, its name a path."},
    subcommands = {KeyCommand.Create.class, KeyCommand.Info.class, KeyCommand.List.class,
        KeyCommand.Rename.class, KeyCommand.Delete.class})
final class KeyCommand implements Callable<Integer> {

  /** The user metadata name under which {@code --file} records the file's MD5 (as S3's ETag). */
  static final String ETAG = "ETag";

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing subcommand: create, info, list, rename or delete");
  }

  /** A subcommand on one key, the first parameter. */
  abstract static class OnKey extends ShellCommand {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET/KEY",
        description = "The key (a leading '/' is ignored; in an FSO bucket KEY is a path).")
    String path;

    ObjectAddress at;

    @Override
    void check() {
      at = ObjectAddress.parse(cmd(), path, ObjectAddress.Depth.KEY);
    }

    /** Whether the key's bucket is FILE_SYSTEM_OPTIMIZED (one GetBucket call). */
    boolean fso() {
      return isFso(this, at);
    }
  }

  /** Whether bucket {@code at} is FILE_SYSTEM_OPTIMIZED; NOT_FOUND names a missing bucket. */
  static boolean isFso(ShellCommand c, ObjectAddress at) {
    return c.om().getBucket(GetBucketRequest.newBuilder().setVolume(at.volume())
        .setBucket(at.bucket()).build()).getBucket().getLayout()
        == BucketLayout.FILE_SYSTEM_OPTIMIZED;
  }

  /**
   * What a new key or file is made of: {@code --size} or {@code --file}, {@code --metadata},
   * {@code --user}, {@code -t/-r} (its replication config; without them the server gives the
   * bucket's default, else its own); {@link #check} reads the file (its size, and its MD5 as
   * metadata {@value #ETAG}) and parses the replication before anything is sent.
   */
  static final class Content {
    @Option(names = "--size", paramLabel = "SIZE",
        description = "Its size: bytes, with an optional unit B, KB, MB, GB, TB, PB (powers of "
            + "1024); default 0.")
    String size;

    @Option(names = "--file", paramLabel = "PATH",
        description = "Take the size from this local file, and its MD5 as metadata "
            + ETAG + " (as S3's ETag of a single-part upload); not with --size.")
    Path file;

    @Option(names = {"-m", "--metadata"}, paramLabel = "NAME=VALUE", mapFallbackValue = "",
        description = "User metadata, repeatable (names of 1 to 128 characters; names and "
            + "values at most 2 KB in all).")
    Map<String, String> metadata = new LinkedHashMap<>();

    @Option(names = {"-u", "--user"}, paramLabel = "OWNER",
        description = "Its owner (default: the bucket's owner).")
    String owner;

    /** Its replication config; without it the bucket's default, else the server's. */
    @CommandLine.Mixin
    ReplicationOptions replication;

    long bytes;
    /** Null: the server decides. */
    ReplicationConfig replicationConfig;

    /**
     * Resolves the size and metadata.
     *
     * @throws CommandLine.ParameterException for --size with --file, a bad size, or a
     *     replication of no known form
     * @throws CliFailure if the file cannot be read
     */
    void check(CommandLine cmd) {
      replicationConfig = replication.config(cmd);
      if (size != null && file != null) {
        throw new CommandLine.ParameterException(cmd, "Give --size or --file, not both");
      }
      if (size != null) {
        bytes = Sizes.parse(cmd, "--size", size);
      }
      if (file != null) {
        if (metadata.containsKey(ETAG)) {
          throw new CommandLine.ParameterException(cmd,
              "--file records metadata " + ETAG + " itself; do not give it with --metadata");
        }
        try (InputStream in = Files.newInputStream(file)) {
          MessageDigest md5 = MessageDigest.getInstance("MD5");
          byte[] buf = new byte[1 << 16];
          long n = 0;
          for (int r; (r = in.read(buf)) > 0; ) {
            md5.update(buf, 0, r);
            n += r;
          }
          bytes = n;
          metadata.put(ETAG, HexFormat.of().formatHex(md5.digest()));
        } catch (IOException e) {
          throw new CliFailure("Cannot read --file " + file + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
          throw new IllegalStateException("The JDK has no MD5", e);
        }
      }
    }

    /** Opens and commits a key of an OBJECT_STORE or LEGACY bucket; returns the committed row. */
    KeyInfo createKey(ShellCommand c, ObjectAddress at) {
      OpenKeyRequest.Builder req = OpenKeyRequest.newBuilder().setVolume(at.volume())
          .setBucket(at.bucket()).setKey(at.key()).setOwner(ShellCommand.nz(owner));
      if (replicationConfig != null) {
        req.setReplicationConfig(replicationConfig);
      }
      OpenKeyResponse open = c.om().openKey(req.build());
      return c.om().commitKey(CommitKeyRequest.newBuilder().setVolume(at.volume())
          .setBucket(at.bucket()).setKey(at.key()).setClientId(open.getClientId())
          .setDataSize(bytes).putAllMetadata(metadata).build()).getKey();
    }

    /** Creates and commits a file of an FSO bucket; returns the committed row (full path). */
    KeyInfo createFile(ShellCommand c, ObjectAddress at) {
      CreateFileRequest.Builder req = CreateFileRequest.newBuilder().setVolume(at.volume())
          .setBucket(at.bucket()).setPath(at.key()).setOwner(ShellCommand.nz(owner));
      if (replicationConfig != null) {
        req.setReplicationConfig(replicationConfig);
      }
      CreateFileResponse open = c.om().createFile(req.build());
      return c.om().commitFile(CommitFileRequest.newBuilder().setVolume(at.volume())
          .setBucket(at.bucket()).setPath(at.key()).setClientId(open.getClientId())
          .setDataSize(bytes).putAllMetadata(metadata).build()).getFile();
    }
  }

  @Command(name = "create", aliases = "put", mixinStandardHelpOptions = true,
      description = {"Create a key (replacing one of that name), then print it.",
          "In an FSO bucket the key is a file: missing parent directories are created. "
              + "Without -t/-r the key gets the bucket's default replication, else the "
              + "server's. NOT_FOUND (exit 1) if the volume or bucket is missing; "
              + "INVALID_ARGUMENT (exit 1) for a replication the server does not allow."})
  static final class Create extends OnKey {
    @CommandLine.Mixin
    Content content;

    @Override
    void check() {
      super.check();
      content.check(cmd());
    }

    @Override
    void run() {
      KeyInfo k = fso() ? content.createFile(this, at) : content.createKey(this, at);
      done(ObjectFields.key(k), "Created key " + at + " (" + k.getDataSize() + " bytes, "
          + ReplicationText.text(ReplicationConfigs.of(k)) + ")");
    }
  }

  @Command(name = "info", mixinStandardHelpOptions = true,
      description = {"Print a key: one `field value` line per field, or JSON.",
          "NOT_FOUND (exit 1) names a missing volume, bucket or key."})
  static final class Info extends OnKey {
    @Override
    void run() {
      KeyInfo k = fso()
          ? om().lookupFile(LookupFileRequest.newBuilder().setVolume(at.volume())
              .setBucket(at.bucket()).setPath(at.key()).build()).getFile()
          : om().lookupKey(LookupKeyRequest.newBuilder().setVolume(at.volume())
              .setBucket(at.bucket()).setKey(at.key()).build()).getKey();
      print(ObjectFields.key(k));
    }
  }

  @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true,
      description = {"List the keys of a bucket in name order, paging through to the end.",
          "Prints `DATE TIME SIZE KEY` (modification time, UTC); --json one object per line. In "
              + "an FSO bucket: the files of the whole tree (ListStatus, depth first; its rows "
              + "carry no metadata: see `key info`), --prefix naming a directory.",
          "NOT_FOUND (exit 1) if the volume or bucket is missing."})
  static final class List extends ShellCommand {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET", description = "The bucket.")
    String path;

    @Option(names = {"-p", "--prefix"},
        description = "Only keys starting with this (FSO: below this directory).")
    String prefix;

    @Option(names = {"-s", "--start"}, paramLabel = "KEY",
        description = "List keys after this one (exclusive; FSO: a path below --prefix).")
    String start;

    private ObjectAddress at;

    @Override
    void check() {
      at = ObjectAddress.parse(cmd(), path, ObjectAddress.Depth.BUCKET);
    }

    @Override
    void run() {
      if (isFso(this, at)) {
        listFiles();
        return;
      }
      ByteString token = ByteString.EMPTY;
      ListKeysResponse r;
      do {
        r = om().listKeys(ListKeysRequest.newBuilder().setVolume(at.volume())
            .setBucket(at.bucket()).setPrefix(nz(prefix)).setStartAfter(nz(start))
            .setPageToken(token).build());
        for (KeyInfo k : r.getKeysList()) {
          row(ObjectFields.key(k), line(k.getModificationTime(), k.getDataSize(),
              k.getKeyName()));
        }
        token = r.getNextPageToken();
      } while (r.getTruncated());
    }

    private void listFiles() {
      ByteString token = ByteString.EMPTY;
      ListStatusResponse r;
      do {
        r = om().listStatus(ListStatusRequest.newBuilder().setVolume(at.volume())
            .setBucket(at.bucket()).setPath(nz(prefix)).setRecursive(true)
            .setStartKey(nz(start)).setPageToken(token).build());
        for (FileStatus s : r.getStatusesList()) {
          if (!s.getIsDirectory()) {
            row(ObjectFields.status(at.volume(), at.bucket(), s),
                line(s.getModificationTime(), s.getSize(), s.getPath()));
          }
        }
        token = r.getNextPageToken();
      } while (r.getTruncated());
    }

    private static String line(long modified, long size, String name) {
      return String.format("%s %10d %s", LsCommand.TIME.format(Instant.ofEpochMilli(modified)),
          size, name);
    }
  }

  @Command(name = "rename", mixinStandardHelpOptions = true,
      description = {"Rename a key within its bucket, then print it (its size, metadata and "
          + "creation time go with it).",
          "ALREADY_EXISTS (exit 1) if TO exists, NOT_FOUND if FROM is missing. In an FSO bucket "
              + "FROM may be a directory (its subtree follows) and TO's parent must exist."})
  static final class Rename extends ShellCommand {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET", description = "The bucket.")
    String path;

    @Parameters(index = "1", paramLabel = "FROM", description = "The key's name.")
    String from;

    @Parameters(index = "2", paramLabel = "TO", description = "Its new name.")
    String to;

    private ObjectAddress at;

    @Override
    void check() {
      at = ObjectAddress.parse(cmd(), path, ObjectAddress.Depth.BUCKET);
    }

    @Override
    void run() {
      Map<String, Object> fields;
      if (isFso(this, at)) {
        fields = ObjectFields.status(at.volume(), at.bucket(), om().rename(RenameRequest
            .newBuilder().setVolume(at.volume()).setBucket(at.bucket()).setFromPath(from)
            .setToPath(to).build()).getStatus());
      } else {
        fields = ObjectFields.key(om().renameKey(RenameKeyRequest.newBuilder()
            .setVolume(at.volume()).setBucket(at.bucket()).setFromKey(from).setToKey(to)
            .build()).getKey());
      }
      done(fields, "Renamed " + at + "/" + from + " to " + at + "/" + to);
    }
  }

  @Command(name = "delete", aliases = "rm", mixinStandardHelpOptions = true,
      description = {"Delete a key (in an FSO bucket a file; directories: `sediment rm -r`).",
          "NOT_FOUND (exit 1) names a missing volume, bucket or key."})
  static final class Delete extends OnKey {
    @Override
    void run() {
      if (fso()) {
        om().deleteFile(DeleteFileRequest.newBuilder().setVolume(at.volume())
            .setBucket(at.bucket()).setPath(at.key()).build());
      } else {
        om().deleteKey(DeleteKeyRequest.newBuilder().setVolume(at.volume())
            .setBucket(at.bucket()).setKey(at.key()).build());
      }
      deleted(at, "Deleted key " + at);
    }
  }
}
