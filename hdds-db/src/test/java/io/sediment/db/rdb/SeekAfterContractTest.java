package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sediment.db.codec.Bytes;
import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.testing.TestStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract of {@link TableIterator#seekAfter}, on real RocksDB, for each iterator variant
 * (byte-array, codec-buffer, and the typed iterator of a {@link TypedTable}), against a
 * {@link TreeMap} oracle in RocksDB's bytewise order:
 *
 * <ul>
 *   <li>it lands on the first key strictly after the target within the bounds (a key that extends
 *       the target with {@code 0x00} is after it), without consuming it;
 *   <li>a target below the lower bound lands on the lower bound; after the last key, after the
 *       upper bound or equal to it, it returns {@code null} and the iterator is exhausted;
 *   <li>it is one positioning: exactly one native seek and no native {@code next()}, also as the
 *       first call of a fresh iterator (no seek to the start first).
 * </ul>
 *
 * <p>Keys are strings over a small alphabet with {@code \u0000} and {@code \u00FF}, so prefixes,
 * extensions by {@code 0x00} and bytes above ASCII all occur.
 */
class SeekAfterContractTest {

  private static final String ALPHABET = "ab\u0000\u00FF";

  @TempDir
  Path dir;

  private DBStore store;
  private final NavigableMap<byte[], String> oracle = new TreeMap<>(Bytes::compare);

  /** How each variant is opened and how it spells keys (raw tables: ISO-8859-1; typed: UTF-8). */
  enum Variant {
    BYTE_ARRAY {
      @Override
      Cursor open(DBStore store, String lower, String upper, boolean prefix) {
        RDBTable t = raw(store);
        byte[] lo = bytes(lower);
        return adapt(prefix ? t.iterator(lo, IteratorType.KEY_AND_VALUE)
            : t.rangeIterator(lo, bytes(upper), IteratorType.KEY_AND_VALUE),
            this::encode, target -> { }, this::decode);
      }
    },
    CODEC_BUFFER {
      @Override
      Cursor open(DBStore store, String lower, String upper, boolean prefix) {
        byte[] lo = bytes(lower);
        return adapt(raw(store).codecBufferIterator(
            lo, prefix ? (lo == null ? null : Bytes.prefixSuccessor(lo)) : bytes(upper),
            IteratorType.KEY_AND_VALUE),
            key -> CodecBuffer.copyOf(encode(key)), CodecBuffer::release,
            key -> decode(key.getArray()));
      }
    },
    TYPED {
      @Override
      byte[] encode(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
      }

      @Override
      void put(DBStore store, String key) {
        store.getTable(TestStores.STRINGS).put(key, "v:" + key);
      }

      @Override
      Cursor open(DBStore store, String lower, String upper, boolean prefix) {
        Table<String, String> t = store.getTable(TestStores.STRINGS);
        return adapt(prefix ? t.iterator(lower, IteratorType.KEY_AND_VALUE)
            : t.rangeIterator(lower, upper, IteratorType.KEY_AND_VALUE),
            key -> key, key -> { }, key -> key);
      }
    },
    READ_VIEW {
      @Override
      Cursor open(DBStore store, String lower, String upper, boolean prefix) {
        ReadView view = store.openReadView();
        Table<byte[], byte[]> t = view.getTable(TestStores.BYTES.name());
        byte[] lo = bytes(lower);
        return closingView(view, adapt(prefix ? t.iterator(lo, IteratorType.KEY_AND_VALUE)
            : t.rangeIterator(lo, bytes(upper), IteratorType.KEY_AND_VALUE),
            this::encode, target -> { }, this::decode));
      }
    },
    READ_VIEW_TYPED {
      @Override
      byte[] encode(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
      }

      @Override
      void put(DBStore store, String key) {
        TYPED.put(store, key);
      }

      @Override
      Cursor open(DBStore store, String lower, String upper, boolean prefix) {
        ReadView view = store.openReadView();
        Table<String, String> t = view.getTable(TestStores.STRINGS);
        return closingView(view, adapt(prefix ? t.iterator(lower, IteratorType.KEY_AND_VALUE)
            : t.rangeIterator(lower, upper, IteratorType.KEY_AND_VALUE),
            key -> key, key -> { }, key -> key));
      }
    };

    /** {@code cursor}, closing {@code view} after it. */
    static Cursor closingView(ReadView view, Cursor cursor) {
      return new Cursor() {
        @Override
        public String seekAfter(String key) {
          return cursor.seekAfter(key);
        }

        @Override
        public String next() {
          return cursor.next();
        }

        @Override
        public boolean hasNext() {
          return cursor.hasNext();
        }

        @Override
        public void close() {
          try {
            cursor.close();
          } finally {
            view.close();
          }
        }
      };
    }

    /**
     * An iterator over the keys starting with {@code lower} ({@code prefix}) or over
     * {@code [lower, upper)}; {@code null} ends are open.
     */
    abstract Cursor open(DBStore store, String lower, String upper, boolean prefix);

    byte[] encode(String key) {
      return key.getBytes(StandardCharsets.ISO_8859_1);
    }

    String decode(byte[] key) {
      return new String(key, StandardCharsets.ISO_8859_1);
    }

    void put(DBStore store, String key) {
      raw(store).put(encode(key), encode("v:" + key));
    }

    byte[] bytes(String key) {
      return key == null ? null : encode(key);
    }

    static RDBTable raw(DBStore store) {
      return (RDBTable) store.getTable(TestStores.BYTES.name());
    }

    /**
     * {@code it} with string keys: {@code target} makes a seek target (released by
     * {@code release} after the seek), {@code name} reads a returned key.
     */
    static <X> Cursor adapt(TableIterator<X, ? extends KeyValue<X, ?>> it,
        Function<String, X> target, Consumer<X> release, Function<X, String> name) {
      return new Cursor() {
        @Override
        public String seekAfter(String key) {
          X t = target.apply(key);
          try {
            KeyValue<X, ?> kv = it.seekAfter(t);
            return kv == null ? null : name.apply(kv.getKey());
          } finally {
            release.accept(t);
          }
        }

        @Override
        public String next() {
          return name.apply(it.next().getKey());
        }

        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public void close() {
          it.close();
        }
      };
    }
  }

  /** The operations under test, with keys as strings. */
  interface Cursor extends AutoCloseable {
    String seekAfter(String key);

    String next();

    boolean hasNext();

    @Override
    void close();
  }

  @BeforeEach
  void openStore() {
    store = TestStores.open(dir.resolve("db"));
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private void put(Variant v, String... keys) {
    for (String k : keys) {
      v.put(store, k);
      oracle.put(v.encode(k), k);
    }
  }

  /** The oracle's keys strictly after {@code key} within the bounds, in order. */
  private List<String> expectedAfter(Variant v, String key, String lower, String upper,
      boolean prefix) {
    byte[] lo = v.bytes(lower);
    byte[] hi = prefix ? (lo == null ? null : Bytes.prefixSuccessor(lo)) : v.bytes(upper);
    List<String> out = new ArrayList<>();
    for (Map.Entry<byte[], String> e : oracle.tailMap(v.encode(key), false).entrySet()) {
      if (hi != null && Bytes.compare(e.getKey(), hi) >= 0) {
        break;
      }
      if (lo == null || Bytes.compare(e.getKey(), lo) >= 0) {
        out.add(e.getValue());
      }
    }
    return out;
  }

  /** seekAfter, then the rest of the iterator, as the oracle says. */
  private void check(Variant v, String lower, String upper, boolean prefix, String target) {
    List<String> expected = expectedAfter(v, target, lower, upper, prefix);
    String what = v + " bounds " + show(lower) + ".." + (prefix ? "prefix" : show(upper))
        + " seekAfter " + show(target);
    try (Cursor c = v.open(store, lower, upper, prefix)) {
      String landed = c.seekAfter(target);
      assertEquals(expected.isEmpty() ? null : expected.get(0), landed, what);
      List<String> rest = new ArrayList<>();
      while (c.hasNext()) {
        rest.add(c.next());
      }
      assertEquals(expected, rest, what + " (then reading on; the landing entry not consumed)");
    }
  }

  private static String show(String s) {
    return s == null ? "-" : s.replace("\u0000", "\\0").replace("\u00FF", "\\xFF");
  }

  private static String randomKey(Random r, int maxLength) {
    int n = r.nextInt(maxLength + 1);
    StringBuilder b = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      b.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
    }
    return b.toString();
  }

  @ParameterizedTest
  @EnumSource(Variant.class)
  void landsOnTheFirstKeyStrictlyAfterTheTargetAsTheOracleSays(Variant v) {
    Random r = new Random(42);
    for (int i = 0; i < 120; i++) {
      String k = randomKey(r, 4);
      if (!k.isEmpty()) {
        put(v, k);
      }
    }
    for (int round = 0; round < 300; round++) {
      String target = randomKey(r, 5);
      switch (round % 3) {
        case 0 -> check(v, null, null, false, target);
        case 1 -> {
          String p = randomKey(r, 2);
          check(v, p.isEmpty() ? "a" : p, null, true, target);
        }
        default -> {
          String a = randomKey(r, 3);
          String b = randomKey(r, 3);
          boolean ordered = Bytes.compare(v.encode(a), v.encode(b)) <= 0;
          check(v, ordered ? a : b, ordered ? b : a, false, target);
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Variant.class)
  void anExtensionByAZeroByteIsTheNextKey(Variant v) {
    put(v, "a", "a\u0000", "a\u0000\u0000", "ab");
    check(v, null, null, false, "a");
    check(v, null, null, false, "a\u0000");
    check(v, "a", null, true, "a");
  }

  @ParameterizedTest
  @EnumSource(Variant.class)
  void prefixBoundsClampTheTarget(Variant v) {
    put(v, "a1", "a2", "b1", "b2", "b3", "c1");
    check(v, "b", null, true, "a");
    check(v, "b", null, true, "a2");
    check(v, "b", null, true, "b");
    check(v, "b", null, true, "b1");
    check(v, "b", null, true, "b3");
    check(v, "b", null, true, "b9");
    check(v, "b", null, true, "c1");
  }

  @ParameterizedTest
  @EnumSource(Variant.class)
  void afterTheLastKeyTheIteratorIsExhausted(Variant v) {
    put(v, "k1", "k2");
    try (Cursor c = v.open(store, null, null, false)) {
      assertNull(c.seekAfter("k2"));
      assertFalse(c.hasNext());
      assertThrows(java.util.NoSuchElementException.class, c::next);
    }
    check(v, null, null, false, "z");
  }

  @ParameterizedTest
  @EnumSource(Variant.class)
  void afterAMissingKeyItLandsOnTheNextLiveOne(Variant v) {
    put(v, "k1", "k3", "k5");
    check(v, null, null, false, "k2");
    check(v, null, null, false, "k0");
    check(v, null, null, false, "");
  }

  @ParameterizedTest
  @EnumSource(Variant.class)
  void atOrPastTheUpperBoundThereIsNothing(Variant v) {
    put(v, "k1", "k2", "k3", "k4");
    check(v, "k1", "k3", false, "k3");
    check(v, "k1", "k3", false, "k2");
    check(v, "k1", "k3", false, "k4");
    check(v, "k", null, true, "l");
    try (Cursor c = v.open(store, "k1", "k3", false)) {
      assertNull(c.seekAfter("k2"));
      assertFalse(c.hasNext());
    }
  }

  @ParameterizedTest
  @EnumSource(Variant.class)
  void isOnePositioningWithoutAStepOverTheTarget(Variant v) {
    put(v, "k1", "k2", "k3");
    long seeks = store.getTickerCount("NUMBER_DB_SEEK");
    long nexts = store.getTickerCount("NUMBER_DB_NEXT");
    try (Cursor c = v.open(store, null, null, false)) {
      assertEquals("k3", c.seekAfter("k2"));
      assertEquals("k3", c.next());
    }
    try (Cursor c = v.open(store, "k", null, true)) {
      assertEquals("k2", c.seekAfter("k1"));
    }
    // Counted when the native iterators are destroyed, i.e. at close.
    assertEquals(2, store.getTickerCount("NUMBER_DB_SEEK") - seeks,
        "one native seek per seekAfter, none to position at the start first");
    assertEquals(0, store.getTickerCount("NUMBER_DB_NEXT") - nexts,
        "no native next(): the target is never landed on and stepped over");
  }
}
