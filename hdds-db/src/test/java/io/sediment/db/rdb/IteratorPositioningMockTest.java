package io.sediment.db.rdb;

import static io.sediment.db.testing.TestBytes.b;
import static io.sediment.db.testing.TestBytes.s;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.AdditionalMatchers.aryEq;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.verifyNoMoreInteractions;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyFilter;
import io.sediment.db.KeyValue;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.managed.ManagedRocksIterator;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;
import org.rocksdb.RocksIterator;

/**
 * Proves, call by call, which native operations the two table iterators issue
 * ({@link RDBStoreByteArrayIterator} and {@link RDBStoreCodecBufferIterator}, one
 * {@link Nested} class each, sharing the tests of {@link Contract}).
 *
 * <p>The native {@code RocksIterator} is a Mockito mock backed by a small sorted list of
 * entries (see {@link FakeNative}), wrapped with {@link ManagedRocksIterator#wrap}. The tests pin
 * down the lazy positioning contract of {@link io.sediment.db.TableIterator}: construction does
 * nothing native; an explicit seek/seekToFirst/seekToLast is the only positioning; a first
 * hasNext/next/removeFromDB positions with exactly one native {@code seekToFirst}; next() does not
 * advance the native iterator past the entry it returns; a page of N entries moves the native
 * iterator N-1 times; removeFromDB deletes the entry last returned (or landed on); key-only
 * iterators never read a value; close frees the native iterator once and everything after it
 * throws {@link IllegalStateException} without touching native code.
 */
class IteratorPositioningMockTest {

  /**
   * A mocked {@code RocksIterator} that behaves like a real one over {@code keys}/{@code values}
   * (sorted, unsigned byte order), including the {@code ByteBuffer} read protocol: the bytes are
   * copied into the buffer from its position, its limit is set after the copied bytes, and the
   * full length is returned even when it did not fit.
   */
  static final class FakeNative {
    final List<byte[]> keys = new ArrayList<>();
    final List<byte[]> values = new ArrayList<>();
    final RocksIterator mock = mock(RocksIterator.class);
    /** Current index; -1 means not positioned (invalid), size() means past the end. */
    int pos = -1;

    FakeNative(String... kv) {
      for (int i = 0; i < kv.length; i += 2) {
        keys.add(b(kv[i]));
        values.add(b(kv[i + 1]));
      }
      stub();
    }

    FakeNative(List<byte[]> keys, List<byte[]> values) {
      this.keys.addAll(keys);
      this.values.addAll(values);
      stub();
    }

    private boolean valid() {
      return pos >= 0 && pos < keys.size();
    }

    private void seekTo(byte[] target) {
      int i = 0;
      while (i < keys.size() && Arrays.compareUnsigned(keys.get(i), target) < 0) {
        i++;
      }
      pos = i;
    }

    private static int copyInto(ByteBuffer dest, byte[] src) {
      int n = Math.min(src.length, dest.remaining());
      dest.put(dest.position(), src, 0, n);
      dest.limit(dest.position() + n);
      return src.length;
    }

    /** As rocksdbjni's {@code key(byte[])}: the bytes that fit, and the whole size. */
    private static int copyInto(byte[] dest, byte[] src) {
      System.arraycopy(src, 0, dest, 0, Math.min(src.length, dest.length));
      return src.length;
    }

    private void stub() {
      doAnswer(i -> {
        pos = 0;
        return null;
      }).when(mock).seekToFirst();
      doAnswer(i -> {
        pos = keys.size() - 1;
        return null;
      }).when(mock).seekToLast();
      doAnswer(i -> {
        seekTo(i.getArgument(0));
        return null;
      }).when(mock).seek(any(byte[].class));
      doAnswer(i -> {
        ByteBuffer t = ((ByteBuffer) i.getArgument(0)).duplicate();
        byte[] target = new byte[t.remaining()];
        t.get(target);
        seekTo(target);
        return null;
      }).when(mock).seek(any(ByteBuffer.class));
      doAnswer(i -> {
        if (!valid()) {
          throw new AssertionError("native next() on an invalid iterator");
        }
        pos++;
        return null;
      }).when(mock).next();
      doAnswer(i -> valid()).when(mock).isValid();
      doAnswer(i -> {
        assertTrue(valid(), "key() read on an invalid iterator");
        return keys.get(pos).clone();
      }).when(mock).key();
      doAnswer(i -> {
        assertTrue(valid(), "value() read on an invalid iterator");
        return values.get(pos).clone();
      }).when(mock).value();
      doAnswer(i -> {
        assertTrue(valid(), "key(byte[]) read on an invalid iterator");
        return copyInto((byte[]) i.getArgument(0), keys.get(pos));
      }).when(mock).key(any(byte[].class));
      doAnswer(i -> {
        assertTrue(valid(), "value(byte[]) read on an invalid iterator");
        return copyInto((byte[]) i.getArgument(0), values.get(pos));
      }).when(mock).value(any(byte[].class));
      doAnswer(i -> {
        assertTrue(valid(), "key(ByteBuffer) read on an invalid iterator");
        return copyInto((ByteBuffer) i.getArgument(0), keys.get(pos));
      }).when(mock).key(any(ByteBuffer.class));
      doAnswer(i -> {
        assertTrue(valid(), "value(ByteBuffer) read on an invalid iterator");
        return copyInto((ByteBuffer) i.getArgument(0), values.get(pos));
      }).when(mock).value(any(ByteBuffer.class));
    }
  }

  /**
   * The tests every iterator variant must pass; subclasses say how the variant reads keys and
   * values, seeks and deletes.
   *
   * @param <RAW> the variant's raw key and value type
   */
  abstract class Contract<RAW> {

    RDBTable table;
    final List<byte[]> deleted = new ArrayList<>();
    final List<RDBStoreAbstractIterator<RAW>> opened = new ArrayList<>();

    abstract RDBStoreAbstractIterator<RAW> create(ManagedRocksIterator nativeIterator,
        RDBTable table, IteratorType type);

    /** Calls the variant's native key read on {@code v} (a verification proxy). */
    abstract void keyRead(RocksIterator v);

    /** Calls the variant's native value read on {@code v}. */
    abstract void valueRead(RocksIterator v);

    /** Calls the variant's native seek to {@code target} on {@code v}. */
    abstract void nativeSeek(RocksIterator v, byte[] target);

    /** Calls the variant's native seek with any target on {@code v}. */
    abstract void anyNativeSeek(RocksIterator v);

    /** Calls the variant's table delete with any key on {@code v}. */
    abstract void tableDelete(RDBTable v);

    /** A seek target holding {@code key}; give it back with {@link #release}. */
    abstract RAW target(byte[] key);

    abstract void release(RAW target);

    abstract byte[] bytes(RAW raw);

    @BeforeEach
    void mockTable() {
      table = mock(RDBTable.class);
      doAnswer(i -> {
        deleted.add(((byte[]) i.getArgument(0)).clone());
        return null;
      }).when(table).delete(any(byte[].class));
      doAnswer(i -> {
        // The iterator passes its own key buffer: copy it while the call lasts.
        deleted.add(((CodecBuffer) i.getArgument(0)).getArray());
        return null;
      }).when(table).delete(any(CodecBuffer.class));
    }

    @AfterEach
    void closeIterators() {
      for (RDBStoreAbstractIterator<RAW> it : opened) {
        it.close();
      }
    }

    RDBStoreAbstractIterator<RAW> open(FakeNative fake, IteratorType type) {
      RDBStoreAbstractIterator<RAW> it = create(ManagedRocksIterator.wrap(fake.mock), table, type);
      opened.add(it);
      return it;
    }

    RDBStoreAbstractIterator<RAW> open(FakeNative fake) {
      return open(fake, IteratorType.KEY_AND_VALUE);
    }

    String key(KeyValue<RAW, RAW> kv) {
      return s(bytes(kv.getKey()));
    }

    String value(KeyValue<RAW, RAW> kv) {
      return kv.getValue() == null ? null : s(bytes(kv.getValue()));
    }

    KeyValue<RAW, RAW> seek(RDBStoreAbstractIterator<RAW> it, String key) {
      RAW t = target(b(key));
      try {
        return it.seek(t);
      } finally {
        release(t);
      }
    }

    FakeNative ace() {
      return new FakeNative("a", "1", "c", "3", "e", "5");
    }

    @Test
    void constructorMakesNoNativeCall() {
      FakeNative fake = ace();
      open(fake);
      verifyNoInteractions(fake.mock);
      verifyNoInteractions(table);
    }

    @Test
    void firstSeekIsTheOnlyPositioningAndReturnsTheLandingEntryWithoutConsumingIt() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      KeyValue<RAW, RAW> landed = seek(it, "b");
      assertNotNull(landed);
      assertEquals("c", key(landed));
      assertEquals("3", value(landed));

      InOrder io = inOrder(fake.mock);
      nativeSeek(io.verify(fake.mock), b("b"));
      io.verify(fake.mock).isValid();
      keyRead(io.verify(fake.mock));
      valueRead(io.verify(fake.mock));
      verify(fake.mock, never()).seekToFirst();
      verify(fake.mock, never()).seekToLast();
      verify(fake.mock, never()).next();
      verifyNoMoreInteractions(fake.mock);

      KeyValue<RAW, RAW> again = it.next();
      assertEquals("c", key(again));
      assertEquals("3", value(again));
      // Returning the landed entry asks nothing of the native iterator: no re-read, no move.
      verifyNoMoreInteractions(fake.mock);
    }

    @Test
    void seekPastTheEndReturnsNullWithoutReadingAKey() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      assertNull(seek(it, "z"));

      InOrder io = inOrder(fake.mock);
      nativeSeek(io.verify(fake.mock), b("z"));
      io.verify(fake.mock).isValid();
      try {
        io.verify(fake.mock).status();
      } catch (Exception e) {
        throw new AssertionError(e);
      }
      verifyNoMoreInteractions(fake.mock);
      assertFalse(it.hasNext());
      verify(fake.mock, never()).seekToFirst();
      verify(fake.mock, never()).next();
    }

    @Test
    void firstSeekToFirstPositionsExactlyOnce() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      it.seekToFirst();
      assertEquals("a", key(it.next()));
      assertEquals("c", key(it.next()));

      InOrder io = inOrder(fake.mock);
      io.verify(fake.mock).seekToFirst();
      io.verify(fake.mock).isValid();
      keyRead(io.verify(fake.mock));
      valueRead(io.verify(fake.mock));
      io.verify(fake.mock).next();
      io.verify(fake.mock).isValid();
      keyRead(io.verify(fake.mock));
      valueRead(io.verify(fake.mock));
      verify(fake.mock, times(1)).seekToFirst();
      verifyNoMoreInteractions(fake.mock);
    }

    @Test
    void firstSeekToLastPositionsAtTheLastEntryAndNeverSeeksToFirst() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      it.seekToLast();
      KeyValue<RAW, RAW> last = it.next();
      assertEquals("e", key(last));
      assertEquals("5", value(last));
      assertFalse(it.hasNext());

      InOrder io = inOrder(fake.mock);
      io.verify(fake.mock).seekToLast();
      io.verify(fake.mock).isValid();
      keyRead(io.verify(fake.mock));
      valueRead(io.verify(fake.mock));
      io.verify(fake.mock).next();
      io.verify(fake.mock).isValid();
      try {
        io.verify(fake.mock).status();
      } catch (Exception e) {
        throw new AssertionError(e);
      }
      verify(fake.mock, never()).seekToFirst();
      verifyNoMoreInteractions(fake.mock);
    }

    @Test
    void firstHasNextSeeksToFirstOnceAndReadsNoKey() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      assertTrue(it.hasNext());

      InOrder io = inOrder(fake.mock);
      io.verify(fake.mock).seekToFirst();
      io.verify(fake.mock).isValid();
      verifyNoMoreInteractions(fake.mock);

      assertTrue(it.hasNext());
      io.verify(fake.mock).isValid();
      verify(fake.mock, times(1)).seekToFirst();
      verifyNoMoreInteractions(fake.mock);
    }

    @Test
    void firstNextReadsTheFirstEntryWithoutAdvancingTheNativeIterator() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      KeyValue<RAW, RAW> first = it.next();
      assertEquals("a", key(first));
      assertEquals("1", value(first));

      InOrder io = inOrder(fake.mock);
      io.verify(fake.mock).seekToFirst();
      io.verify(fake.mock).isValid();
      keyRead(io.verify(fake.mock));
      valueRead(io.verify(fake.mock));
      verify(fake.mock, never()).next();
      verifyNoMoreInteractions(fake.mock);
      assertEquals(0, fake.pos, "the native iterator must stay on the entry returned");
    }

    @Test
    void firstRemoveFromDBDeletesExactlyTheFirstKey() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      it.removeFromDB();

      InOrder io = inOrder(fake.mock, table);
      io.verify(fake.mock).seekToFirst();
      io.verify(fake.mock).isValid();
      keyRead(io.verify(fake.mock));
      tableDelete(io.verify(table));
      verifyNoMoreInteractions(fake.mock);
      verifyNoMoreInteractions(table);
      assertEquals(List.of("a"), deletedKeys());
    }

    @Test
    void removeFromDBOnAnEmptyRangeThrowsAndDeletesNothing() {
      FakeNative fake = new FakeNative();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      assertThrows(IllegalStateException.class, it::removeFromDB);
      verifyNoInteractions(table);
      verify(fake.mock, times(1)).seekToFirst();
    }

    @Test
    void readingNEntriesMovesTheNativeIteratorNMinusOneTimes() {
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        keys.add(b("k" + i));
        values.add(b("v" + i));
      }
      FakeNative fake = new FakeNative(keys, values);
      RDBStoreAbstractIterator<RAW> it = open(fake);
      int count = 4;
      List<String> got = new ArrayList<>();
      while (got.size() < count && it.hasNext()) {
        got.add(key(it.next()));
      }
      assertEquals(List.of("k0", "k1", "k2", "k3"), got);
      verify(fake.mock, times(1)).seekToFirst();
      verify(fake.mock, times(count - 1)).next();
      anyNativeSeek(verify(fake.mock, never()));
      assertEquals(count - 1, fake.pos, "the native iterator must stay on the last entry read");
    }

    @Test
    void hasNextAfterNextAdvancesOnceAndRepeatedHasNextDoesNotMove() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      assertEquals("a", key(it.next()));
      assertTrue(it.hasNext());
      assertTrue(it.hasNext());
      assertEquals("c", key(it.next()));

      InOrder io = inOrder(fake.mock);
      io.verify(fake.mock).seekToFirst();
      io.verify(fake.mock).isValid();
      keyRead(io.verify(fake.mock));
      valueRead(io.verify(fake.mock));
      io.verify(fake.mock).next();
      // Once per hasNext(); the next() right after a hasNext() that found an entry asks no more.
      io.verify(fake.mock, times(2)).isValid();
      keyRead(io.verify(fake.mock));
      valueRead(io.verify(fake.mock));
      verify(fake.mock, times(1)).next();
      verifyNoMoreInteractions(fake.mock);
    }

    @Test
    void nextPastTheEndThrowsNoSuchElement() {
      FakeNative fake = new FakeNative("a", "1");
      RDBStoreAbstractIterator<RAW> it = open(fake);
      assertEquals("a", key(it.next()));
      assertThrows(NoSuchElementException.class, it::next);
      verify(fake.mock, times(1)).next();
    }

    @Test
    void removeFromDBDeletesTheKeyReturnedByNextNotTheFollowingOne() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      assertEquals("a", key(it.next()));
      assertEquals("c", key(it.next()));
      it.removeFromDB();
      assertEquals(List.of("c"), deletedKeys());
      // The deletion reuses the key already read: no extra native read.
      keyRead(verify(fake.mock, times(2)));
      // The iterator's own view is unchanged: it goes on with "e".
      assertEquals("e", key(it.next()));
    }

    @Test
    void removeFromDBAfterHasNextStillDeletesTheKeyReturnedByNext() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      assertEquals("a", key(it.next()));
      assertTrue(it.hasNext()); // moves the native iterator to "c"
      it.removeFromDB();
      assertEquals(List.of("a"), deletedKeys());
      assertEquals("c", key(it.next()));
    }

    @Test
    void removeFromDBAfterSeekDeletesTheLandingKey() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      assertEquals("c", key(seek(it, "b")));
      it.removeFromDB();
      assertEquals(List.of("c"), deletedKeys());
      keyRead(verify(fake.mock, times(1)));
    }

    @Test
    void closeFreesTheNativeIteratorOnceAndEveryLaterCallThrows() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake);
      assertEquals("a", key(it.next()));
      it.close();
      it.close();
      verify(fake.mock, times(1)).close();

      RAW t = target(b("c"));
      try {
        assertThrows(IllegalStateException.class, () -> it.seek(t));
      } finally {
        release(t);
      }
      assertThrows(IllegalStateException.class, it::hasNext);
      assertThrows(IllegalStateException.class, it::next);
      assertThrows(IllegalStateException.class, it::seekToFirst);
      assertThrows(IllegalStateException.class, it::seekToLast);
      assertThrows(IllegalStateException.class, it::removeFromDB);

      InOrder io = inOrder(fake.mock);
      io.verify(fake.mock).seekToFirst();
      io.verify(fake.mock).isValid();
      keyRead(io.verify(fake.mock));
      valueRead(io.verify(fake.mock));
      io.verify(fake.mock).close();
      verifyNoMoreInteractions(fake.mock);
      verifyNoInteractions(table);
    }

    @Test
    void keyOnlyIteratorNeverReadsAValue() {
      FakeNative fake = ace();
      RDBStoreAbstractIterator<RAW> it = open(fake, IteratorType.KEY_ONLY);
      KeyValue<RAW, RAW> landed = seek(it, "c");
      assertEquals("c", key(landed));
      assertNull(landed.getValue());
      it.seekToFirst();
      List<String> keys = new ArrayList<>();
      while (it.hasNext()) {
        KeyValue<RAW, RAW> kv = it.next();
        assertNull(kv.getValue());
        keys.add(key(kv));
      }
      it.seekToLast();
      assertEquals("e", key(it.next()));
      assertEquals(List.of("a", "c", "e"), keys);
      verify(fake.mock, never()).value();
      verify(fake.mock, never()).value(any(byte[].class));
      verify(fake.mock, never()).value(any(ByteBuffer.class));
    }

    List<String> deletedKeys() {
      List<String> out = new ArrayList<>();
      for (byte[] k : deleted) {
        out.add(s(k));
      }
      return out;
    }
  }

  /** The {@code byte[]} iterator. */
  @Nested
  class ByteArrayIterator extends Contract<byte[]> {

    @Override
    RDBStoreAbstractIterator<byte[]> create(ManagedRocksIterator nativeIterator, RDBTable table,
        IteratorType type) {
      return new RDBStoreByteArrayIterator(nativeIterator, table, type);
    }

    @Override
    void keyRead(RocksIterator v) {
      v.key(any(byte[].class));
    }

    @Override
    void valueRead(RocksIterator v) {
      v.value(any(byte[].class));
    }

    @Override
    void nativeSeek(RocksIterator v, byte[] target) {
      v.seek(aryEq(target));
    }

    @Override
    void anyNativeSeek(RocksIterator v) {
      v.seek(any(byte[].class));
    }

    @Override
    void tableDelete(RDBTable v) {
      v.delete(any(byte[].class));
    }

    @Override
    byte[] target(byte[] key) {
      return key;
    }

    @Override
    void release(byte[] target) {
    }

    @Override
    byte[] bytes(byte[] raw) {
      return raw;
    }

    FakeNative tenEntries() {
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        keys.add(b("k" + i));
        values.add(b("v" + i));
      }
      return new FakeNative(keys, values);
    }

    @Test
    void pageOfCountEntriesMovesTheNativeIteratorCountMinusOneTimes() {
      FakeNative fake = tenEntries();
      RDBStoreByteArrayIterator it = (RDBStoreByteArrayIterator) open(fake);
      int count = 4;
      List<KeyValue<byte[], byte[]>> page =
          RangeCollector.collect(it, null, false, count, false, new KeyFilter[0]);
      assertEquals(count, page.size());
      for (int i = 0; i < count; i++) {
        assertEquals("k" + i, s(page.get(i).getKey()));
        assertEquals("v" + i, s(page.get(i).getValue()));
      }
      verify(fake.mock, times(1)).seekToFirst();
      verify(fake.mock, times(count - 1)).next();
      verify(fake.mock, times(count)).key(any(byte[].class));
      verify(fake.mock, times(count)).value(any(byte[].class));
      verify(fake.mock, never()).seekToLast();
      verify(fake.mock, never()).seek(any(byte[].class));
      assertEquals(count - 1, fake.pos);
    }

    @Test
    void pageFromAStartKeySeeksOnceAndMovesCountMinusOneTimes() {
      FakeNative fake = tenEntries();
      RDBStoreByteArrayIterator it = (RDBStoreByteArrayIterator) open(fake);
      int count = 3;
      List<KeyValue<byte[], byte[]>> page =
          RangeCollector.collect(it, b("k5"), true, count, false, new KeyFilter[0]);
      assertEquals(List.of("k5", "k6", "k7"), page.stream().map(kv -> s(kv.getKey())).toList());
      verify(fake.mock, times(1)).seek(aryEq(b("k5")));
      verify(fake.mock, never()).seekToFirst();
      verify(fake.mock, times(count - 1)).next();
      // The landing entry is read once by the seek and not again by next().
      verify(fake.mock, times(count)).key(any(byte[].class));
    }

    @Test
    void removeFromDBWithoutATableIsUnsupported() {
      FakeNative fake = ace();
      RDBStoreByteArrayIterator it =
          new RDBStoreByteArrayIterator(ManagedRocksIterator.wrap(fake.mock), null,
              IteratorType.KEY_AND_VALUE);
      try {
        assertThrows(UnsupportedOperationException.class, it::removeFromDB);
        verifyNoInteractions(fake.mock);
      } finally {
        it.close();
      }
    }
  }

  /** The zero-copy {@link CodecBuffer} iterator. */
  @Nested
  class CodecBufferIterator extends Contract<CodecBuffer> {

    @Override
    RDBStoreAbstractIterator<CodecBuffer> create(ManagedRocksIterator nativeIterator,
        RDBTable table, IteratorType type) {
      return new RDBStoreCodecBufferIterator(nativeIterator, table, type);
    }

    @Override
    void keyRead(RocksIterator v) {
      v.key(any(byte[].class));
    }

    @Override
    void valueRead(RocksIterator v) {
      v.value(any(byte[].class));
    }

    @Override
    void nativeSeek(RocksIterator v, byte[] target) {
      v.seek(argThat((ByteBuffer bb) -> {
        ByteBuffer d = bb.duplicate();
        byte[] got = new byte[d.remaining()];
        d.get(got);
        return Arrays.equals(got, target);
      }));
    }

    @Override
    void anyNativeSeek(RocksIterator v) {
      v.seek(any(ByteBuffer.class));
    }

    @Override
    void tableDelete(RDBTable v) {
      v.delete(any(CodecBuffer.class));
    }

    @Override
    CodecBuffer target(byte[] key) {
      return CodecBuffer.copyOf(key);
    }

    @Override
    void release(CodecBuffer target) {
      target.release();
    }

    @Override
    byte[] bytes(CodecBuffer raw) {
      return raw.getArray();
    }

    @Test
    void entriesLargerThanTheScratchArrayAreReadIntoTheBuffersGrown() {
      // Larger than the scratch array (1,024 bytes) and than the key (256) and value (4,096)
      // buffers.
      byte[] bigKey = new byte[2_000];
      byte[] bigValue = new byte[10_000];
      for (int i = 0; i < bigKey.length; i++) {
        bigKey[i] = (byte) ('a' + i % 26);
      }
      for (int i = 0; i < bigValue.length; i++) {
        bigValue[i] = (byte) i;
      }
      byte[] smallKey = b("zz");
      FakeNative fake = new FakeNative(List.of(bigKey, smallKey), List.of(bigValue, b("v")));
      RDBStoreAbstractIterator<CodecBuffer> it = open(fake);

      KeyValue<CodecBuffer, CodecBuffer> first = it.next();
      assertArrayEquals(bigKey, first.getKey().getArray());
      assertArrayEquals(bigValue, first.getValue().getArray());
      // One read into the scratch array gives the size; then the buffer's: one to learn it is
      // too small, one after growing.
      verify(fake.mock, times(1)).key(any(byte[].class));
      verify(fake.mock, times(1)).value(any(byte[].class));
      verify(fake.mock, times(2)).key(any(ByteBuffer.class));
      verify(fake.mock, times(2)).value(any(ByteBuffer.class));
      assertTrue(first.getKey().capacity() >= bigKey.length);

      KeyValue<CodecBuffer, CodecBuffer> second = it.next();
      assertArrayEquals(smallKey, second.getKey().getArray());
      assertArrayEquals(b("v"), second.getValue().getArray());
      // A small entry: one read each into the scratch array, none into a buffer.
      verify(fake.mock, times(2)).key(any(byte[].class));
      verify(fake.mock, times(2)).value(any(byte[].class));
      verify(fake.mock, times(2)).key(any(ByteBuffer.class));
      verify(fake.mock, times(2)).value(any(ByteBuffer.class));
    }

    @Test
    void removeFromDBAfterAGrownKeyDeletesTheWholeKey() {
      byte[] bigKey = new byte[700];
      Arrays.fill(bigKey, (byte) 'q');
      FakeNative fake = new FakeNative(List.of(bigKey), List.of(b("v")));
      RDBStoreAbstractIterator<CodecBuffer> it = open(fake);
      it.removeFromDB();
      assertEquals(1, deleted.size());
      assertArrayEquals(bigKey, deleted.get(0));
    }
  }
}
