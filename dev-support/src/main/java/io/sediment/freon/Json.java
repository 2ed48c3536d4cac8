package io.sediment.freon;

import java.util.Locale;
import java.util.Map;

/**
 * Writes maps, strings, numbers and booleans as JSON text. Non-finite doubles become
 * {@code null}, as JSON has no NaN. Stateless.
 */
final class Json {

  private Json() {
  }

  /** {@code value} as JSON, objects in the maps' iteration order, indented by two spaces. */
  static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(b, value, "");
    return b.append('\n').toString();
  }

  private static void write(StringBuilder b, Object v, String indent) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        b.append("{}");
        return;
      }
      b.append("{\n");
      String inner = indent + "  ";
      int i = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        b.append(inner);
        string(b, String.valueOf(e.getKey()));
        b.append(": ");
        write(b, e.getValue(), inner);
        b.append(++i < m.size() ? ",\n" : "\n");
      }
      b.append(indent).append('}');
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      b.append(Double.isFinite(d) ? String.format(Locale.ROOT, "%.3f", d) : "null");
    } else if (v instanceof Number || v instanceof Boolean) {
      b.append(v);
    } else {
      string(b, v.toString());
    }
  }

  private static void string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }
}
