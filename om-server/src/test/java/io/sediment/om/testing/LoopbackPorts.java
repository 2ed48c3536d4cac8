package io.sediment.om.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loopback TCP ports that a test names now and binds later (a replica's peer list must name every
 * port before any replica starts).
 *
 * <p>A port from {@code new ServerSocket(0)} comes from the kernel's ephemeral range, the range
 * outgoing connections draw from too: between the choice and the bind, a replica's connection to
 * a peer may take it, and the bind then fails. These ports come from below that range, so only a
 * listener can hold one. Each is checked free when handed out and none is handed out twice by one
 * JVM. Thread-safe.
 */
public final class LoopbackPorts {

  /** The lowest port handed out: clear of the well-known and most registered service ports. */
  static final int FLOOR = 10_000;

  private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  private static final int[] BAND = band();
  private static final AtomicInteger NEXT = new AtomicInteger(
      ThreadLocalRandom.current().nextInt(BAND[1] - BAND[0]));

  private LoopbackPorts() {
  }

  /**
   * A loopback port that nothing listened on a moment ago and that this JVM has not handed out
   * before, outside the ephemeral range when the kernel names one.
   *
   * @throws UncheckedIOException when every port of the band is taken
   */
  public static int free() {
    int size = BAND[1] - BAND[0];
    for (int tries = 0; tries < size; tries++) {
      int port = BAND[0] + Math.floorMod(NEXT.getAndIncrement(), size);
      if (bindable(port)) {
        return port;
      }
    }
    throw new UncheckedIOException(new IOException("no free loopback port in ["
        + BAND[0] + ", " + BAND[1] + ")"));
  }

  /** The band ports come from, {@code [low, high)}: below the ephemeral range, else above it. */
  static int[] band() {
    int low = 32_768;
    int high = 60_999;
    try {
      String[] range = Files.readString(EPHEMERAL_RANGE).trim().split("\\s+");
      low = Integer.parseInt(range[0]);
      high = Integer.parseInt(range[1]);
    } catch (IOException | RuntimeException e) {
      // No such file off Linux: assume Linux's default range.
    }
    if (low - FLOOR >= 1_000) {
      return new int[] {FLOOR, low};
    }
    if (65_535 - high >= 1_000) {
      return new int[] {high + 1, 65_536};
    }
    return new int[] {FLOOR, 65_536};
  }

  private static boolean bindable(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(false);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
