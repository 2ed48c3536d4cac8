package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.auth.BearerToken;
import io.sediment.om.grpc.TokenRpcs;
import io.sediment.om.auth.TokenVerifier;
import io.sediment.proto.om.CreateTokenRequest;
import io.sediment.proto.om.RevokeTokenRequest;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A token made through the leader of a group verifies on a follower once applied there, and a
 * revocation refuses it there from the moment the follower applied it; the replicas' stores stay
 * identical.
 */
class ReplicatedTokensTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path root;

  @Test
  void aTokenMadeOnTheLeaderWorksOnAFollowerUntilRevoked() throws Exception {
    try (ReplicaCluster cluster = new ReplicaCluster(root, 3, Duration.ofMillis(400), false)) {
      ReplicaCluster.Node leader = cluster.leader(WAIT);
      TokenRpcs onLeader = new TokenRpcs(leader.store, leader.writes, null);
      String token = onLeader.create(CreateTokenRequest.newBuilder().setPrincipal("alice")
          .build()).getToken();
      cluster.awaitCaughtUp(leader, WAIT);
      ReplicaCluster.Node follower = cluster.follower(leader);
      TokenVerifier onFollower = new TokenVerifier(follower.store, Clock.systemUTC());
      assertEquals("alice", onFollower.verify(token));

      onLeader.revoke(RevokeTokenRequest.newBuilder().setId(BearerToken.parse(token).id())
          .build());
      cluster.awaitCaughtUp(leader, WAIT);
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
          () -> onFollower.verify(token));
      assertEquals(Status.Code.UNAUTHENTICATED, e.getStatus().getCode());
      assertEquals(ReplicaCluster.checksum(leader.store), ReplicaCluster.checksum(follower.store));
    }
  }
}
