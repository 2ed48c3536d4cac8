package io.sediment.om.ha;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.sediment.om.core.LogPosition;
import io.sediment.proto.om.CheckpointChunk;
import io.sediment.proto.om.CheckpointFileDigest;
import io.sediment.proto.om.CheckpointManifest;
import io.sediment.proto.om.FetchCheckpointRequest;
import io.sediment.proto.om.ReplicationServiceGrpc;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/**
 * Receives a copy of another replica's store (ReplicationService.FetchCheckpoint) into an empty
 * directory and checks it whole before anyone installs it: every path is a plain relative name
 * inside the directory, every file has the size it was announced with, and the closing manifest
 * names exactly the files received, each with its size and CRC32C. Each file is fsynced, and so
 * is every directory, before {@link #fetch} returns. Stateless.
 */
final class CheckpointDownload {

  /** What a finished download holds. */
  record Received(LogPosition position, int files, long bytes) {}

  private CheckpointDownload() {
  }

  /**
   * Downloads the copy the replica at {@code address} ({@code host:port} of its OM gRPC service)
   * sends into {@code into} (an existing, empty directory), over a channel with
   * {@code credentials} (TLS when the replicas serve it).
   *
   * @throws IOException if the call fails or the copy breaks a rule above; {@code into} then
   *     holds an incomplete copy that must not be installed
   */
  static Received fetch(String address, String selfId, Path into, Duration timeout,
      ChannelCredentials credentials) throws IOException {
    ManagedChannel channel = Grpc.newChannelBuilder(address, credentials)
        .maxInboundMessageSize(4 << 20).build();
    try {
      Iterator<CheckpointChunk> chunks = ReplicationServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
          .fetchCheckpoint(FetchCheckpointRequest.newBuilder().setReplicaId(selfId).build());
      return receive(chunks, into);
    } catch (StatusRuntimeException e) {
      throw new IOException("Fetching a copy of the store from " + address + " failed: "
          + e.getStatus(), e);
    } finally {
      channel.shutdownNow();
    }
  }

  /** Writes the chunks' files into {@code into} and checks them; see the class comment. */
  static Received receive(Iterator<CheckpointChunk> chunks, Path into) throws IOException {
    Map<String, CheckpointFileDigest> received = new LinkedHashMap<>();
    FileSink sink = null;
    long bytes = 0;
    try {
      while (chunks.hasNext()) {
        CheckpointChunk chunk = chunks.next();
        switch (chunk.getPartCase()) {
          case FILE -> {
            finish(sink, received);
            String name = chunk.getFile().getPath();
            if (received.containsKey(name)) {
              throw new IOException("The copy sends " + name + " twice");
            }
            sink = new FileSink(name, target(into, name), chunk.getFile().getSize());
          }
          case DATA -> {
            if (sink == null) {
              throw new IOException("The copy sends data before naming a file");
            }
            sink.write(chunk.getData().toByteArray());
            bytes += chunk.getData().size();
          }
          case MANIFEST -> {
            finish(sink, received);
            if (chunks.hasNext()) {
              throw new IOException("The copy goes on after its manifest");
            }
            check(chunk.getManifest(), received);
            syncDirectories(into);
            CheckpointManifest m = chunk.getManifest();
            return new Received(new LogPosition(m.getTerm(), m.getIndex()), received.size(),
                bytes);
          }
          default -> throw new IOException("The copy sends an empty chunk");
        }
      }
      finish(sink, received);
      throw new IOException("The copy ended without its manifest (" + received.size()
          + " files received)");
    } finally {
      if (sink != null) {
        sink.abandon();
      }
    }
  }

  /** {@code into}/{@code name}, refusing names that are absolute, empty or leave {@code into}. */
  private static Path target(Path into, String name) throws IOException {
    Path rel = into.getFileSystem().getPath(name);
    Path resolved = into.resolve(rel).normalize();
    if (name.isEmpty() || rel.isAbsolute() || !rel.normalize().equals(rel)
        || !rel.toString().equals(name)
        || name.contains("..") || !resolved.startsWith(into) || resolved.equals(into)) {
      throw new IOException("The copy names a file outside its directory: '" + name + "'");
    }
    Files.createDirectories(resolved.getParent());
    return resolved;
  }

  private static void finish(FileSink sink, Map<String, CheckpointFileDigest> received)
      throws IOException {
    if (sink != null && !received.containsKey(sink.name)) {
      received.put(sink.name, sink.close());
    }
  }

  private static void check(CheckpointManifest manifest, Map<String, CheckpointFileDigest> received)
      throws IOException {
    Map<String, CheckpointFileDigest> listed = new LinkedHashMap<>();
    for (CheckpointFileDigest d : manifest.getFilesList()) {
      listed.put(d.getPath(), d);
    }
    if (!listed.keySet().equals(received.keySet())) {
      throw new IOException("The copy's manifest lists " + listed.size()
          + " files but other ones than the " + received.size() + " received");
    }
    for (CheckpointFileDigest got : received.values()) {
      if (!got.equals(listed.get(got.getPath()))) {
        throw new IOException("The copy's file " + got.getPath() + " does not match its "
            + "manifest (received " + got.getSize() + " bytes, CRC32C " + got.getCrc32C()
            + "; listed " + listed.get(got.getPath()).getSize() + " bytes, CRC32C "
            + listed.get(got.getPath()).getCrc32C() + ")");
      }
    }
  }

  private static void syncDirectories(Path into) throws IOException {
    try (var dirs = Files.walk(into)) {
      for (Path d : (Iterable<Path>) dirs.filter(Files::isDirectory)::iterator) {
        try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
          ch.force(true);
        }
      }
    }
  }

  /** One file being written: its announced size is a limit, and must be met by its end. */
  private static final class FileSink {
    final String name;
    final Path path;
    final long size;
    final CRC32C crc = new CRC32C();
    final FileChannel channel;
    final OutputStream out;
    long written;

    FileSink(String name, Path path, long size) throws IOException {
      if (size < 0) {
        throw new IOException("The copy announces " + name + " with " + size + " bytes");
      }
      this.name = name;
      this.path = path;
      this.size = size;
      this.channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      this.out = java.nio.channels.Channels.newOutputStream(channel);
    }

    void write(byte[] data) throws IOException {
      if (written + data.length > size) {
        throw new IOException("The copy sends more than the " + size + " bytes announced for "
            + name);
      }
      out.write(data);
      crc.update(data);
      written += data.length;
    }

    /** Closes the file if it is still open (after a failure); the file stays, incomplete. */
    void abandon() {
      try {
        channel.close();
      } catch (IOException ignored) {
        // the download failed already; this file is never installed
      }
    }

    CheckpointFileDigest close() throws IOException {
      try {
        if (written != size) {
          throw new IOException("The copy sends " + written + " of the " + size
              + " bytes announced for " + name);
        }
        channel.force(true);
      } finally {
        channel.close();
      }
      return CheckpointFileDigest.newBuilder().setPath(name).setSize(size)
          .setCrc32C((int) crc.getValue()).build();
    }
  }
}
