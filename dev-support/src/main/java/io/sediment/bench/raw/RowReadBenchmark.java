package io.sediment.bench.raw;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * How a scan reads each entry into a fresh Java array, through plain rocksdbjni on one store: the
 * array-returning {@code key()}/{@code value()} (JNI allocates each array), or the copying
 * {@code key(byte[])}/{@code value(byte[])} into one scratch array and a Java copy of the filled
 * part. An operation opens an iterator, reads {@value #PAGE} entries (keys of about 40 bytes,
 * values of 120) and closes it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class RowReadBenchmark {

  private static final int PAGE = 1_000;
  private static final int KEYS = 20_000;

  private Path dir;
  private Options options;
  private RocksDB db;

  @Setup
  public void setUp() throws IOException, RocksDBException {
    RocksDB.loadLibrary();
    dir = Files.createTempDirectory("rowread");
    options = new Options().setCreateIfMissing(true);
    db = RocksDB.open(options, dir.toString());
    byte[] value = new byte[120];
    Arrays.fill(value, (byte) 'v');
    for (int i = 0; i < KEYS; i++) {
      db.put(String.format("/freon/obs/key-%010d-%016x", i, i * 0x9E3779B97F4A7C15L).getBytes(),
          value);
    }
    try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush);
    }
    db.compactRange();
  }

  @TearDown
  public void tearDown() throws IOException {
    db.close();
    options.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** {@code key()} and {@code value()}: a new array from JNI each. */
  @Benchmark
  public long arraysFromJni(Blackhole bh) {
    long bytes = 0;
    try (RocksIterator it = db.newIterator()) {
      it.seekToFirst();
      for (int i = 0; i < PAGE && it.isValid(); i++, it.next()) {
        byte[] k = it.key();
        byte[] v = it.value();
        bh.consume(k);
        bh.consume(v);
        bytes += k.length + v.length;
      }
    }
    return bytes;
  }

  /**
   * {@code key(ByteBuffer)} and {@code value(ByteBuffer)} into two direct buffers, as the typed
   * (codec-buffer) iterator reads.
   */
  @Benchmark
  public long directBuffers(Blackhole bh) {
    long bytes = 0;
    ByteBuffer key = ByteBuffer.allocateDirect(256);
    ByteBuffer value = ByteBuffer.allocateDirect(4096);
    try (RocksIterator it = db.newIterator()) {
      it.seekToFirst();
      for (int i = 0; i < PAGE && it.isValid(); i++, it.next()) {
        key.clear();
        value.clear();
        bytes += it.key(key) + it.value(value);
        bh.consume(key);
        bh.consume(value);
      }
    }
    return bytes;
  }

  /**
   * {@code key(byte[])} and {@code value(byte[])} into one scratch array, each then copied into
   * a direct buffer: the direct buffers' contents without JNI reading the buffers' addresses.
   */
  @Benchmark
  public long scratchIntoDirect(Blackhole bh) {
    long bytes = 0;
    byte[] scratch = new byte[256];
    ByteBuffer key = ByteBuffer.allocateDirect(256);
    ByteBuffer value = ByteBuffer.allocateDirect(4096);
    try (RocksIterator it = db.newIterator()) {
      it.seekToFirst();
      for (int i = 0; i < PAGE && it.isValid(); i++, it.next()) {
        int n = it.key(scratch);
        key.clear();
        key.put(scratch, 0, n).flip();
        n = it.value(scratch);
        value.clear();
        value.put(scratch, 0, n).flip();
        bytes += key.remaining() + value.remaining();
        bh.consume(key);
        bh.consume(value);
      }
    }
    return bytes;
  }

  /** {@code key(byte[])} and {@code value(byte[])} into one scratch array, then a Java copy. */
  @Benchmark
  public long copiedFromScratch(Blackhole bh) {
    long bytes = 0;
    byte[] scratch = new byte[256];
    try (RocksIterator it = db.newIterator()) {
      it.seekToFirst();
      for (int i = 0; i < PAGE && it.isValid(); i++, it.next()) {
        int n = it.key(scratch);
        byte[] k = Arrays.copyOf(scratch, n);
        n = it.value(scratch);
        byte[] v = Arrays.copyOf(scratch, n);
        bh.consume(k);
        bh.consume(v);
        bytes += k.length + v.length;
      }
    }
    return bytes;
  }
}
