package io.sediment.om.requests;

/**
 * This replica does not serve the request: writes and linearizable reads go to the group's
 * leader. Carries the leader when this replica knows it, so a client can go there directly;
 * nothing was submitted or read.
 */
public final class NotLeaderException extends RuntimeException {

  private final String leaderId;
  private final String leaderAddress;

  /**
   * @param self this replica's id
   * @param leaderId the leader's replica id, or null if unknown (an election is running)
   * @param leaderAddress the leader's OmService address ({@code host:port}), or null if unknown
   */
  public NotLeaderException(String self, String leaderId, String leaderAddress) {
    super("Replica " + self + " is not the leader; "
        + (leaderId == null ? "no leader is known yet (an election is running): retry shortly"
            : "the leader is " + leaderId
                + (leaderAddress == null ? "" : " at " + leaderAddress)));
    this.leaderId = leaderId;
    this.leaderAddress = leaderAddress;
  }

  /** The leader's replica id, or null if unknown. */
  public String leaderId() {
    return leaderId;
  }

  /** The leader's OmService address ({@code host:port}), or null if unknown. */
  public String leaderAddress() {
    return leaderAddress;
  }
}
