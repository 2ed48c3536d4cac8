package io.sediment.db.rdb;

import static io.sediment.db.testing.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Timestamp;
import io.sediment.db.DBDefinition;
import io.sediment.db.DBStore;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.CodecException;
import io.sediment.db.codec.LongCodec;
import io.sediment.db.codec.ProtoCodec;
import io.sediment.db.codec.StringCodec;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stored bytes that a table's codecs cannot decode surface as {@link CodecException} whose message
 * names the table and the key, on every read path of a typed table: {@code get},
 * {@code getIfExist}, iterator {@code next} and {@code seek}, and {@code getRangeKVs}. The bytes are
 * planted through the raw table of the same column family. Undecodable keys likewise name the
 * table. A failed decode leaves the table and its other entries readable.
 */
class CorruptValueTest {

  private static final String KEY = "corrupt-key-17";
  /** 0xC3 starts a 2-byte sequence that 0x28 does not continue: not UTF-8. */
  private static final byte[] BAD_UTF8 = {'x', (byte) 0xC3, (byte) 0x28};

  private static final TableDefinition<Long, Timestamp> TIMES = TableDefinition.of("times",
      LongCodec.get(), ProtoCodec.of(Timestamp.class, Timestamp.parser()));
  private static final TableDefinition<String, Timestamp> EVENTS = TableDefinition.of("events",
      StringCodec.get(), ProtoCodec.of(Timestamp.class, Timestamp.parser()));
  private static final DBDefinition PROTO_DEFINITION =
      DBDefinition.of("protos", TestStores.BYTES, TestStores.STRINGS, TIMES, EVENTS);

  @TempDir Path dir;

  private static void assertNames(CodecException e, String... parts) {
    for (String part : parts) {
      assertTrue(e.getMessage().contains(part),
          "message does not name '" + part + "': " + e.getMessage());
    }
  }

  /** Runs {@code call}, expecting a CodecException naming every part. */
  private static void assertCorrupt(Executable call, String... parts) {
    CodecException e = assertThrows(CodecException.class, call);
    assertNames(e, parts);
  }

  @Test
  void malformedUtf8ValueFailsEveryReadPathNamingTableAndKey() {
    try (DBStore store = TestStores.open(dir)) {
      Table<String, String> strings = store.getTable(TestStores.STRINGS);
      strings.put("a-good", "fine");
      strings.put("z-good", "fine too");
      store.getTable("strings").put(b(KEY), BAD_UTF8);

      assertCorrupt(() -> strings.get(KEY), "strings", KEY);
      assertCorrupt(() -> strings.getIfExist(KEY), "strings", KEY);
      assertCorrupt(() -> strings.getAll(List.of("a-good", KEY)), "strings", KEY);
      assertCorrupt(() -> strings.getRangeKVs(KEY, 1, null), "strings", KEY);
      assertCorrupt(() -> strings.getRangeKVs(null, 10, null), "strings", KEY);
      assertCorrupt(() -> strings.getRangeKVs("c", 10, "c"), "strings", KEY);
      assertCorrupt(() -> strings.getSequentialRangeKVs("a-good", 10, null), "strings", KEY);

      try (TableIterator<String, KeyValue<String, String>> it = strings.iterator()) {
        assertEquals(KeyValue.of("a-good", "fine"), it.next());
        assertCorrupt(it::next, "strings", KEY);
      }
      try (TableIterator<String, KeyValue<String, String>> it = strings.iterator()) {
        assertCorrupt(() -> it.seek("b"), "strings", KEY);
      }
      try (TableIterator<String, KeyValue<String, String>> it = strings.iterator("corrupt")) {
        assertCorrupt(it::next, "strings", KEY);
      }

      assertEquals("fine", strings.get("a-good"), "other entries stay readable");
      assertEquals(List.of(KeyValue.of("z-good", "fine too")), strings.getRangeKVs("z-good", 5, null));
      assertTrue(strings.isExist(KEY), "existence does not decode");
      store.flush();
      assertCorrupt(() -> strings.get(KEY), "strings", KEY);
    }
  }

  @Test
  void nextAfterASeekThatFailedToDecodeFailsTooInsteadOfRepeatingThePreviousSeeksEntry() {
    try (DBStore store = TestStores.open(dir)) {
      Table<String, String> strings = store.getTable(TestStores.STRINGS);
      strings.put("a-good", "fine");
      store.getTable("strings").put(b(KEY), BAD_UTF8);

      try (TableIterator<String, KeyValue<String, String>> it = strings.iterator()) {
        assertEquals(KeyValue.of("a-good", "fine"), it.seek("a-good"));
        assertCorrupt(() -> it.seek("b"), "strings", KEY);
        // The iterator stands on the corrupt entry: next() must not hand back "a-good" again.
        assertCorrupt(it::next, "strings", KEY);
      }
    }
  }

  @Test
  void undecodableKeyFailsIterationAndRangeReadsNamingTheTable() {
    try (DBStore store = TestStores.open(dir)) {
      Table<String, String> strings = store.getTable(TestStores.STRINGS);
      strings.put("a", "1");
      byte[] badKey = {'m', (byte) 0xFF, 'k'};
      store.getTable("strings").put(badKey, b("v"));

      try (TableIterator<String, KeyValue<String, String>> it = strings.iterator()) {
        assertEquals("a", it.next().getKey());
        assertCorrupt(it::next, "strings", "m\\xFFk");
      }
      try (TableIterator<String, KeyValue<String, String>> it = strings.iterator()) {
        assertCorrupt(() -> it.seek("b"), "strings", "m\\xFFk");
      }
      try (TableIterator<String, KeyValue<String, String>> it = strings.iterator("m")) {
        assertCorrupt(it::next, "strings", "m\\xFFk");
      }
      assertCorrupt(() -> strings.getRangeKVs(null, 10, null), "strings", "m\\xFFk");
      assertCorrupt(() -> strings.getRangeKVs(null, 10, "m"), "strings", "m\\xFFk");
      assertEquals(List.of(KeyValue.of("a", "1")), strings.getRangeKVs(null, 1, null));
    }
  }

  @Test
  void unparsableProtoValueFailsEveryReadPathNamingTableAndKey() {
    try (DBStore store = TestStores.open(dir, PROTO_DEFINITION)) {
      Table<String, Timestamp> events = store.getTable(EVENTS);
      Timestamp ok = Timestamp.newBuilder().setSeconds(42).build();
      events.put("event-1", ok);
      // field 1 (seconds) varint, cut off after a continuation byte
      store.getTable("events").put(b(KEY), new byte[] {0x08, (byte) 0x80});

      assertEquals(ok, events.get("event-1"));
      assertCorrupt(() -> events.get(KEY), "events", KEY);
      assertCorrupt(() -> events.getIfExist(KEY), "events", KEY);
      assertCorrupt(() -> events.getRangeKVs(KEY, 1, null), "events", KEY);
      assertCorrupt(() -> events.getRangeKVs(null, 5, null), "events", KEY);
      try (TableIterator<String, KeyValue<String, Timestamp>> it = events.iterator()) {
        assertCorrupt(it::next, "events", KEY);
      }
      try (TableIterator<String, KeyValue<String, Timestamp>> it = events.iterator()) {
        assertCorrupt(() -> it.seek("c"), "events", KEY);
      }
    }
  }

  @Test
  void wrongLengthLongKeyFailsNamingTheTable() {
    try (DBStore store = TestStores.open(dir, PROTO_DEFINITION)) {
      Table<Long, Timestamp> times = store.getTable(TIMES);
      Timestamp t = Timestamp.newBuilder().setSeconds(7).build();
      times.put(-5L, t);
      times.put(5L, t);
      store.getTable("times").put(new byte[] {(byte) 0x90, 1, 2}, t.toByteArray());

      assertEquals(List.of(KeyValue.of(-5L, t), KeyValue.of(5L, t)),
          times.getRangeKVs(null, 2, null), "the numeric keys sort first");
      assertCorrupt(() -> times.getRangeKVs(null, 3, null), "times", "\\x90\\x01\\x02");
      try (TableIterator<Long, KeyValue<Long, Timestamp>> it = times.iterator()) {
        it.next();
        it.next();
        assertCorrupt(it::next, "times", "\\x90\\x01\\x02");
      }
      try (TableIterator<Long, KeyValue<Long, Timestamp>> it = times.iterator()) {
        assertCorrupt(() -> it.seek(6L), "times", "\\x90\\x01\\x02");
      }
    }
  }
}
