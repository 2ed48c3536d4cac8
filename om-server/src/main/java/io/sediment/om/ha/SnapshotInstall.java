package io.sediment.om.ha;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.LogPosition;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a replica whose log fell behind the leader's purged log catches up: it downloads a copy of
 * the leader's store ({@link CheckpointDownload}) next to its own, then replaces its store's files
 * with it ({@link io.sediment.om.ReplicaFiles#installIncoming}). The download runs while the
 * replica goes on serving what it has; only the replacement stops its store briefly.
 * Not thread-safe: one install at a time (the state machine runs them on one thread).
 */
final class SnapshotInstall {

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotInstall.class);
  /** How long one download may take: generous, a store of millions of keys is gigabytes. */
  static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(30);

  private final OmMetadataStore store;
  private final String selfId;
  private final Function<String, String> rpcAddressOf;
  private final Duration timeout;
  private final ChannelCredentials credentials;

  /**
   * @param rpcAddressOf the OM gRPC address ({@code host:port}) of a replica id, or null if it is
   *     not known
   * @param timeout how long one download may take
   * @param credentials of the download's channel (TLS when the replicas serve TLS)
   */
  SnapshotInstall(OmMetadataStore store, String selfId, Function<String, String> rpcAddressOf,
      Duration timeout, ChannelCredentials credentials) {
    this.store = store;
    this.selfId = selfId;
    this.rpcAddressOf = rpcAddressOf;
    this.timeout = timeout;
    this.credentials = credentials;
  }

  /** Downloads over plaintext channels. */
  SnapshotInstall(OmMetadataStore store, String selfId, Function<String, String> rpcAddressOf,
      Duration timeout) {
    this(store, selfId, rpcAddressOf, timeout, InsecureChannelCredentials.create());
  }

  /**
   * Downloads the copy of replica {@code leaderId} and checks it (this replica's store is
   * untouched); call {@link #install} next.
   *
   * @param knownAddress the leader's OM RPC address if the caller knows it, else null (then the
   *     address the constructor's lookup gives)
   * @throws IOException if the leader's RPC address is unknown or the download fails
   */
  CheckpointDownload.Received download(String leaderId, String knownAddress) throws IOException {
    String address = knownAddress != null ? knownAddress : rpcAddressOf.apply(leaderId);
    if (address == null) {
      throw new IOException("Replica '" + leaderId + "' has no known OM RPC address to fetch a "
          + "copy of its store from (give each peer as ID=HOST:RAFT_PORT:RPC_PORT)");
    }
    Path into = store.replicaFiles().incomingDir();
    long started = System.nanoTime();
    CheckpointDownload.Received r = CheckpointDownload.fetch(address, selfId, into, timeout,
        credentials);
    LOG.info("Downloaded a copy of replica '{}''s store at {}: {} files, {} bytes in {} ms",
        leaderId, r.position(), r.files(), r.bytes(), (System.nanoTime() - started) / 1_000_000);
    return r;
  }

  /**
   * Replaces this replica's store with the downloaded copy; returns the position the installed
   * store holds (the store's own record, which its manifest should have announced).
   */
  LogPosition install(CheckpointDownload.Received downloaded) {
    long started = System.nanoTime();
    LogPosition position = store.replicaFiles().installIncoming();
    if (!position.equals(downloaded.position())) {
      LOG.warn("The installed copy holds position {}, its manifest announced {}", position,
          downloaded.position());
    }
    LOG.info("Installed the copy at {} in place of this replica's store in {} ms", position,
        (System.nanoTime() - started) / 1_000_000);
    return position;
  }
}
