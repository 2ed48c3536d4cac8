package io.sediment.cli;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;

/**
 * Compact one-line JSON: of protobuf messages (proto3 JSON mapping), of strings, and of plain
 * values ({@link #write}: maps, lists, strings, numbers, booleans, null), which the object shell
 * prints in {@link io.sediment.om.insight.ObjectFields}' schema.
 */
final class Json {

  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private Json() {
  }

  static String of(MessageOrBuilder m) {
    try {
      return PRINTER.print(m);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("Cannot print " + m.getClass().getSimpleName(), e);
    }
  }

  /** A JSON string literal. */
  static String str(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
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
    return b.append('"').toString();
  }

  /**
   * {@code value} as JSON: a {@link Map} as an object (keys as strings, in the map's order), an
   * {@link Iterable} as an array, a {@link CharSequence} or enum as a string, a {@link Number} or
   * {@link Boolean} as itself, null as null.
   *
   * @throws IllegalArgumentException for any other type, or a non-finite floating point number
   */
  static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(b, value);
    return b.toString();
  }

  private static void write(StringBuilder b, Object v) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof CharSequence || v instanceof Enum<?>) {
      b.append(str(v.toString()));
    } else if (v instanceof Double d && !Double.isFinite(d)
        || v instanceof Float f && !Float.isFinite(f)) {
      throw new IllegalArgumentException("Not a JSON number: " + v);
    } else if (v instanceof Number || v instanceof Boolean) {
      b.append(v);
    } else if (v instanceof java.util.Map<?, ?> m) {
      b.append('{');
      boolean first = true;
      for (java.util.Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          b.append(',');
        }
        first = false;
        b.append(str(String.valueOf(e.getKey()))).append(':');
        write(b, e.getValue());
      }
      b.append('}');
    } else if (v instanceof Iterable<?> list) {
      b.append('[');
      boolean first = true;
      for (Object e : list) {
        if (!first) {
          b.append(',');
        }
        first = false;
        write(b, e);
      }
      b.append(']');
    } else {
      throw new IllegalArgumentException("No JSON form for " + v.getClass().getName());
    }
  }
}
