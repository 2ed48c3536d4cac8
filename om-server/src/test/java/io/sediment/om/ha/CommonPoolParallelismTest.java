package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class CommonPoolParallelismTest {

  @Test
  void raisesTheDefaultOfOneOrTwoCoresToTwo() {
    assertEquals(OptionalInt.of(2), CommonPoolParallelism.chosen(null, 1));
    assertEquals(OptionalInt.of(2), CommonPoolParallelism.chosen(null, 2));
  }

  @Test
  void leavesTheDefaultOfThreeOrMoreCoresAlone() {
    assertEquals(OptionalInt.empty(), CommonPoolParallelism.chosen(null, 3));
    assertEquals(OptionalInt.empty(), CommonPoolParallelism.chosen(null, 64));
  }

  @Test
  void keepsAValueTheUserSet() {
    assertEquals(OptionalInt.empty(), CommonPoolParallelism.chosen("1", 2));
    assertEquals(OptionalInt.empty(), CommonPoolParallelism.chosen("8", 2));
  }
}
