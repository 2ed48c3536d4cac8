package io.sediment.om.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
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
  private static final int[] LINUX_DEFAULT_RANGE = {32_768, 60_999};
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
    int[] range = kernelEphemeralRange();
    return band(range == null ? LINUX_DEFAULT_RANGE : range);
  }

  /**
   * The kernel's ephemeral range {@code [low, high]} (both inclusive), or {@code null} when it
   * names none (no such file off Linux, or text that is not two numbers).
   */
  static int[] kernelEphemeralRange() {
    // Not Files.readString: for this /proc file, whose size reads 0, it returns only the first
    // character ("3" of "32768 60999"), so the kernel's range was never read.
    try (InputStream in = Files.newInputStream(EPHEMERAL_RANGE)) {
      String[] range = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim()
          .split("\\s+");
      return new int[] {Integer.parseInt(range[0]), Integer.parseInt(range[1])};
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The band outside the ephemeral range {@code [range[0], range[1]]}, {@code [low, high)}. */
  static int[] band(int[] range) {
    if (range[0] - FLOOR >= 1_000) {
      return new int[] {FLOOR, range[0]};
    }
    if (65_535 - range[1] >= 1_000) {
      return new int[] {range[1] + 1, 65_536};
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
