package io.sediment.om.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
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
