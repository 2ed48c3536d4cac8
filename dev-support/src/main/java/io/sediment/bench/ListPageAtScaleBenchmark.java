package io.sediment.bench;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.sediment.bench.raw.RawTables;
import io.sediment.freon.KeySpace;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.listing.KeyRowView;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.proto.om.ListObjectsV2Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The ListObjectsV2 page of freon's list workload in the store, no RPC, on a namespace built by
 * {@code freon build}: the service's page ({@code listObjectsV2}, in {@code -p view}, the page's
 * bucket read as the server reads it) against floor (b)'s raw work on the same open store
 * ({@code rawScan}: one bounded rocksdbjni iterator, one seek, 1,000 rows copied out). Both walk
 * the same pages, chosen uniformly among the namespace's whole pages as freon chooses them, in
 * the same order. Their difference is what the layers add to the scan at that size.
 *
 * <p>And parts of the page alone: the basic view's cut of one page's 1,000 stored rows
 * ({@code cutRows}, part of {@code listObjectsV2}); and what a page's response costs beyond what
 * freon's echo floor pays for one of the same size: the server's encoding of a page
 * ({@code encodeResponse}), the client's parse of it into 1,000 key messages
 * ({@code parseResponse}), against the echo client's copy of the same number of bytes
 * ({@code copyResponse}).
 *
 * <p>{@code -p store=DIR,...}: data directories built by {@code dev-support/bin/freon build
 * --data DIR --keys N} (required; only read). Run with the shaded cli jar on the class path:
 * {@code java -cp dev-support/target/benchmarks.jar:cli/target/sediment.jar
 * org.openjdk.jmh.Main ListPageAtScaleBenchmark -p store=/tmp/b100k,/tmp/b10m}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class ListPageAtScaleBenchmark {

  private static final int PAGE = 1_000;
  /** Names as {@code freon build} writes them (freon's own defaults). */
  private static final String VOLUME = "freon";
  private static final String BUCKET = "obs";
  /** Pages walked in a cycle: enough that a run does not keep re-reading a few cached blocks. */
  private static final int STARTS = 4_096;

  /** A directory holding a store built by {@code freon build}. */
  @Param({""})
  public String store;

  /** The page's view: {@code basic} (a message per key) or {@code columns} (the page's columns). */
  @Param({"basic", "columns"})
  public String view;

  private KeyRowView pageView;

  private OmMetadataStore opened;
  private RawTables raw;
  private String[] startAfter;
  private byte[][] rawFrom;
  private byte[] rawUpper;
  private int next;
  private ListObjectsV2Result samplePage;
  private byte[] sampleResponse;
  private byte[][] sampleRows;

  @Setup(Level.Trial)
  public void setUp() {
    Path dir = Path.of(store);
    if (store.isEmpty() || !Files.isDirectory(dir)) {
      throw new IllegalArgumentException("-p store=DIR: a store built by freon build, not '"
          + store + "'");
    }
    pageView = switch (view) {
      case "basic" -> KeyRowView.BASIC;
      case "columns" -> KeyRowView.COLUMNS;
      default -> throw new IllegalArgumentException("-p view=basic|columns, not '" + view + "'");
    };
    opened = OmMetadataStore.open(dir.resolve("om"), OmStoreOptions.defaults());
    raw = RawTables.of(opened.dbStore(), List.of("keyTable"));
    long keys = keyCount();
    long pages = keys / PAGE;
    if (pages < 2) {
      throw new IllegalStateException(store + " holds " + keys + " keys in " + VOLUME + "/"
          + BUCKET + ": two pages of " + PAGE + " at least are needed");
    }
    startAfter = new String[STARTS];
    rawFrom = new byte[STARTS][];
    SplittableRandom random = new SplittableRandom(42);
    String bucketPrefix = OmKeys.bucketPrefix(VOLUME, BUCKET);
    for (int i = 0; i < STARTS; i++) {
      long page = random.nextLong(pages);
      startAfter[i] = page == 0 ? "" : KeySpace.key(page * PAGE - 1);
      rawFrom[i] = OmKeys.utf8(page == 0 ? bucketPrefix
          : OmKeys.objectKey(VOLUME, BUCKET, startAfter[i]));
    }
    rawUpper = OmKeys.utf8(bucketPrefix); // a fresh array: its last byte becomes the bound
    rawUpper[rawUpper.length - 1]++;
    samplePage = opened.listObjectsV2(ListObjectsV2Request.of(VOLUME, BUCKET)
        .withStartAfter(startAfter[0]).withMaxKeys(PAGE).withView(KeyRowView.BASIC));
    sampleResponse = encodeResponse();
    sampleRows = opened.listObjectsV2(ListObjectsV2Request.of(VOLUME, BUCKET).withMaxKeys(PAGE)
        .withView(KeyRowView.FULL)).encodedContents().stream().map(ByteString::toByteArray)
        .toArray(byte[][]::new);
    for (int i = 0; i < 8; i++) {
      if (listObjectsV2().keyCount() != PAGE || rawScan() != PAGE) {
        throw new IllegalStateException("pages of " + PAGE + " keys expected in " + store);
      }
    }
  }

  /** How many keys the store holds: freon build names them {@code [0, n)} without a gap. */
  private long keyCount() {
    long low = 0;
    long high = 1;
    while (exists(high - 1)) {
      low = high;
      high *= 2;
    }
    // key(low - 1) exists (or low is 0), key(high - 1) does not.
    while (high - low > 1) {
      long mid = (low + high) >>> 1;
      if (exists(mid - 1)) {
        low = mid;
      } else {
        high = mid;
      }
    }
    return low;
  }

  private boolean exists(long i) {
    byte[] key = OmKeys.utf8(OmKeys.objectKey(VOLUME, BUCKET, KeySpace.key(i)));
    return raw.get("keyTable", key) != null;
  }

  private int nextStart() {
    int i = next;
    next = (i + 1) % STARTS;
    return i;
  }

  @Benchmark
  public ListObjectsV2Result listObjectsV2() {
    return opened.listObjectsV2(ListObjectsV2Request.of(VOLUME, BUCKET)
        .withStartAfter(startAfter[nextStart()]).withMaxKeys(PAGE).withView(pageView));
  }

  @Benchmark
  public int rawScan() {
    int i = nextStart();
    return raw.scan("keyTable", rawFrom[i], !startAfter[i].isEmpty(), rawUpper, PAGE);
  }

  /** The basic view's cut of one page's 1,000 stored rows, as the page makes it. */
  @Benchmark
  public int cutRows() {
    KeyRowView.Cut cut = KeyRowView.BASIC.page();
    int bytes = 0;
    for (byte[] row : sampleRows) {
      bytes += cut.of(row).size();
    }
    return bytes;
  }

  /**
   * The server's encoding of one page's response (the page as read, its keys' stored rows as
   * the response's repeated field, as {@code KeyRpcs#listObjectsV2} builds it), to bytes.
   */
  @Benchmark
  public byte[] encodeResponse() {
    UnknownFieldSet.Field.Builder contents = UnknownFieldSet.Field.newBuilder();
    for (ByteString key : samplePage.encodedContents()) {
      contents.addLengthDelimited(key);
    }
    return ListObjectsV2Response.newBuilder()
        .setUnknownFields(UnknownFieldSet.newBuilder()
            .addField(ListObjectsV2Response.CONTENTS_FIELD_NUMBER, contents.build()).build())
        .setKeyCount(samplePage.keyCount())
        .setIsTruncated(samplePage.truncated())
        .setNextContinuationToken(ByteString.copyFromUtf8(samplePage.nextContinuationToken()))
        .build().toByteArray();
  }

  /** The client's parse of that response: the 1,000 keys as messages. */
  @Benchmark
  public ListObjectsV2Response parseResponse() throws InvalidProtocolBufferException {
    return ListObjectsV2Response.parseFrom(sampleResponse);
  }

  /** What the echo floor's client does with a response of the same size: one field's bytes. */
  @Benchmark
  public byte[] copyResponse() {
    return Arrays.copyOf(sampleResponse, sampleResponse.length);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    raw.close();
    opened.close();
  }
}
