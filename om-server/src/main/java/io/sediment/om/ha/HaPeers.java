package io.sediment.om.ha;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The replicas of one group, as {@code --peers} spells them: comma-separated
 * {@code ID=HOST:RAFT_PORT[:RPC_PORT]}, e.g. {@code om1=127.0.0.1:9872:9862}. {@code RAFT_PORT} is
 * where the replica's Raft (Ratis) server listens; {@code RPC_PORT}, when given, is its OmService
 * port, which replicas name to clients as the leader's address. An IPv6 host is bracketed
 * ({@code [::1]:9872}). Ids are 1 to 32 letters, digits, {@code -} or {@code _}.
 *
 * <p>Immutable; peers keep the order given.
 */
public final class HaPeers {

  private static final Pattern PEER = Pattern.compile(
      "([A-Za-z0-9_-]{1,32})=(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+):(\\d{1,5})(?::(\\d{1,5}))?");

  /** One replica: its id, Raft address and OmService address (null if not given). */
  public record Peer(String id, String host, int raftPort, Integer rpcPort) {

    /** {@code host:raftPort}. */
    public String raftAddress() {
      return host + ":" + raftPort;
    }

    /** {@code host:rpcPort}, or null if no OmService port was given. */
    public String rpcAddress() {
      return rpcPort == null ? null : host + ":" + rpcPort;
    }
  }

  private final Map<String, Peer> peers;

  private HaPeers(Map<String, Peer> peers) {
    this.peers = Collections.unmodifiableMap(peers);
  }

  /**
   * Parses a {@code --peers} value.
   *
   * @throws IllegalArgumentException naming the part that is malformed: a bad entry, a port out
   *     of 1..65535, an id given twice, or no peer at all
   */
  public static HaPeers parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("--peers names no replica (expected ID=HOST:RAFT_PORT"
          + "[:RPC_PORT],...)");
    }
    Map<String, Peer> out = new LinkedHashMap<>();
    for (String part : spec.split(",", -1)) {
      Matcher m = PEER.matcher(part.trim());
      if (!m.matches()) {
        throw new IllegalArgumentException("Malformed peer '" + part
            + "' (expected ID=HOST:RAFT_PORT[:RPC_PORT], e.g. om1=127.0.0.1:9872:9862)");
      }
      Peer p = new Peer(m.group(1), m.group(2), port(part, m.group(3)),
          m.group(4) == null ? null : port(part, m.group(4)));
      if (out.putIfAbsent(p.id(), p) != null) {
        throw new IllegalArgumentException("Peer id '" + p.id() + "' is given twice");
      }
    }
    return new HaPeers(out);
  }

  private static int port(String part, String digits) {
    int port = Integer.parseInt(digits);
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("Port " + port + " of peer '" + part
          + "' is out of range 1..65535");
    }
    return port;
  }

  /** The peers in the order given. */
  public List<Peer> all() {
    return new ArrayList<>(peers.values());
  }

  /**
   * The peer with id {@code id}.
   *
   * @throws IllegalArgumentException if there is none
   */
  public Peer require(String id) {
    Peer p = peers.get(id);
    if (p == null) {
      throw new IllegalArgumentException("Replica id '" + id + "' is not one of --peers "
          + peers.keySet());
    }
    return p;
  }

  /** The OmService address of replica {@code id}, or null if unknown. */
  public String rpcAddressOf(String id) {
    Peer p = peers.get(id);
    return p == null ? null : p.rpcAddress();
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Peer p : peers.values()) {
      if (b.length() > 0) {
        b.append(',');
      }
      b.append(p.id()).append('=').append(p.raftAddress());
      if (p.rpcPort() != null) {
        b.append(':').append(p.rpcPort());
      }
    }
    return b.toString();
  }
}
