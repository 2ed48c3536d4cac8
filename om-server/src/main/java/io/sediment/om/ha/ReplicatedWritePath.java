package io.sediment.om.ha;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmException;
import io.sediment.om.grpc.RequestIds;
import io.sediment.om.grpc.WriteRequests;
import io.sediment.om.requests.NotLeaderException;
import io.sediment.om.requests.WritePath;
import io.sediment.proto.om.AdoptTokenSecret;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OmLogReply;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.ratis.protocol.ClientId;

/**
 * The replicated write path: on the leader, pre-executes the request ({@link
 * WriteRequests#preExecute}: the time and anything else that must be the same on every replica),
 * appends it to the group's log and returns once it is committed (durable on a majority) and
 * applied here. A follower refuses with {@link io.sediment.om.requests.NotLeaderException}
 * naming the leader.
 *
 * <p>Retries: a request that carries its sender's id ({@link RequestIds}) is deduplicated by the
 * group's retry cache, so a client that resends after a timeout or a failover gets the first
 * reply, not a second application (while the cache holds it: Ratis keeps it in memory for 60 s).
 *
 * <p>The first write or read barrier on a new leader whose store still has its own token secret
 * first appends the group's ({@link AdoptTokenSecret}), so continuation tokens verify on every
 * replica.
 *
 * <p>Thread-safe.
 */
public final class ReplicatedWritePath implements WritePath {

  private final OmReplica replica;
  private final OmMetadataStore store;
  private final Clock clock;
  private volatile boolean secretAdopted;

  public ReplicatedWritePath(OmReplica replica, OmMetadataStore store, Clock clock) {
    this.replica = Objects.requireNonNull(replica, "replica");
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public <R extends Message> R write(OmLogEntry.Builder entry, Parser<R> parser) {
    try {
      return writeAsync(entry, parser).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  /** Refuses on a follower, naming the leader: writes are decided and submitted by the leader. */
  @Override
  public void beforeSubmit() {
    if (!replica.isLeader()) {
      ReplicaStatus s = replica.status();
      throw new NotLeaderException(replica.id(), s.leaderId(), s.leaderAddress());
    }
  }

  /**
   * Pre-executes and submits on the calling thread (which must carry the call's
   * {@link RequestIds}); the future completes on the thread that applied the entry here.
   */
  @Override
  public <R extends Message> CompletableFuture<R> writeAsync(OmLogEntry.Builder entry,
      Parser<R> parser) {
    try {
      ensureGroupTokenSecret();
      RequestIds.Ids ids = RequestIds.current();
      OmLogEntry decided = WriteRequests.preExecute(entry, clock.millis());
      CompletableFuture<OmLogReply> reply = ids == null
          ? replica.submitAsync(decided, null, replica.nextLocalCallId())
          : replica.submitAsync(decided, ClientId.valueOf(ids.clientId()), ids.callId());
      return reply.thenApply(r -> parse(r, parser));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Appends the group's token secret unless this store already adopted one. */
  void ensureGroupTokenSecret() {
    if (secretAdopted) {
      return;
    }
    synchronized (this) {
      adoptOnce();
    }
  }

  private void adoptOnce() {
    if (secretAdopted) {
      return;
    }
    if (!store.appliedLog().tokenSecretAdopted()) {
      byte[] secret = new byte[32];
      new SecureRandom().nextBytes(secret);
      OmLogEntry entry = OmLogEntry.newBuilder().setTimeMillis(clock.millis())
          .setAdoptTokenSecret(AdoptTokenSecret.newBuilder().setSecret(ByteString.copyFrom(secret)))
          .build();
      parse(replica.submit(entry, null, replica.nextLocalCallId()), null);
    }
    secretAdopted = true;
  }

  private static <R extends Message> R parse(OmLogReply reply, Parser<R> parser) {
    if (!reply.getErrorCode().isEmpty()) {
      OmException.Code code;
      try {
        code = OmException.Code.valueOf(reply.getErrorCode());
      } catch (IllegalArgumentException e) {
        code = OmException.Code.INTERNAL;
      }
      throw new OmException(code, reply.getErrorMessage());
    }
    if (parser == null) {
      return null;
    }
    try {
      return parser.parseFrom(reply.getResponse());
    } catch (InvalidProtocolBufferException e) {
      throw new OmException(OmException.Code.INTERNAL, "Unreadable response: " + e.getMessage(),
          e);
    }
  }
}
