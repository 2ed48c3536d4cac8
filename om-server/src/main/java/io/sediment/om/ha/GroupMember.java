package io.sediment.om.ha;

import java.util.Objects;

/**
 * One voting member of a group's current configuration, as the group's log records it (which is
 * what counts once replicas have been added or removed at runtime, whatever {@code --peers} says).
 *
 * @param id the replica's id
 * @param raftAddress where its Raft server listens ({@code host:port})
 * @param rpcAddress its OmService address ({@code host:port}), or null if it was never given
 */
public record GroupMember(String id, String raftAddress, String rpcAddress) {

  public GroupMember {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(raftAddress, "raftAddress");
  }
}
