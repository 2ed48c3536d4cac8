package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Json#write}: plain values as JSON that a JSON parser reads back to the same values. */
class JsonTest {

  @Test
  void writesNestedValuesInOrderAndEscapesStrings() throws Exception {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", "a\"b\\c\n\u0001é");
    m.put("zero", 0L);
    m.put("big", Long.MAX_VALUE);
    m.put("flag", false);
    m.put("none", null);
    m.put("list", List.of(1, "x", Map.of()));
    m.put("nested", Map.of("k", "v"));
    String text = Json.write(m);
    assertEquals("{\"name\":\"a\\\"b\\\\c\\n\\u0001é\",\"zero\":0,\"big\":9223372036854775807,"
        + "\"flag\":false,\"none\":null,\"list\":[1,\"x\",{}],\"nested\":{\"k\":\"v\"}}", text);
    Map<?, ?> back = new ObjectMapper().readValue(text, Map.class);
    assertEquals(Arrays.asList("name", "zero", "big", "flag", "none", "list", "nested"),
        List.copyOf(back.keySet()));
    assertEquals(m.get("name"), back.get("name"));
  }

  @Test
  void refusesWhatJsonCannotSay() {
    assertThrows(IllegalArgumentException.class, () -> Json.write(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> Json.write(Map.of("k", new Object())));
  }
}
