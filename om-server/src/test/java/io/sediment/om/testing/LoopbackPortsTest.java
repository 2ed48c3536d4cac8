package io.sediment.om.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LoopbackPortsTest {

  @Test
  void portsComeFromOutsideTheEphemeralRangeAndNeverTwice() {
    int[] band = LoopbackPorts.band();
    assertTrue(band[0] >= LoopbackPorts.FLOOR && band[1] <= 65_536 && band[1] - band[0] >= 1_000,
        band[0] + ".." + band[1]);
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      int port = LoopbackPorts.free();
      assertTrue(port >= band[0] && port < band[1], port + " outside the band");
      assertTrue(seen.add(port), port + " handed out twice");
    }
  }

  @Test
  void theKernelsEphemeralRangeIsReadWhole() throws Exception {
    Path file = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    assumeTrue(Files.isReadable(file), "no ephemeral range to read off Linux");
    String[] expected = Files.readAllLines(file).get(0).trim().split("\\s+");
    int[] range = LoopbackPorts.kernelEphemeralRange();
    assertNotNull(range, "the range in " + file + " did not read as two numbers");
    assertEquals(Integer.parseInt(expected[0]), range[0]);
    assertEquals(Integer.parseInt(expected[1]), range[1]);
    int[] band = LoopbackPorts.band();
    assertTrue(band[1] <= range[0] || band[0] > range[1],
        "band " + band[0] + ".." + band[1] + " overlaps " + range[0] + ".." + range[1]);
  }

  @Test
  void theBandLiesBelowTheRangeWhenThereIsRoomElseAbove() {
    assertArrayEquals(new int[] {10_000, 32_768}, LoopbackPorts.band(new int[] {32_768, 60_999}));
    assertArrayEquals(new int[] {61_000, 65_536}, LoopbackPorts.band(new int[] {10_500, 60_999}));
    assertArrayEquals(new int[] {10_000, 65_536}, LoopbackPorts.band(new int[] {1_024, 65_000}));
  }

  @Test
  void aPortSomeoneListensOnIsNotHandedOut() throws Exception {
    int port = LoopbackPorts.free();
    try (ServerSocket held = new ServerSocket()) {
      held.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      for (int i = 0; i < 50; i++) {
        assertNotEquals(port, LoopbackPorts.free());
      }
      assertFalse(held.isClosed());
    }
  }
}
