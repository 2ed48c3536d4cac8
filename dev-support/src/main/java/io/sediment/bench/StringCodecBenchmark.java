package io.sediment.bench;

import io.sediment.db.codec.StringCodec;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What the strict UTF-8 {@link StringCodec} costs on a key of 36 ASCII bytes (as a listing
 * decodes every row's name and a lookup encodes its key), against the JDK's reporting
 * {@code CharsetEncoder}/{@code CharsetDecoder}, which the codec used for every string before its
 * ASCII path and still uses for any other.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class StringCodecBenchmark {

  private final String key = "freon/obs/key-0001234567-89abcdef01";
  private final byte[] bytes = key.getBytes(StandardCharsets.UTF_8);

  @Benchmark
  public byte[] encodeCodec() {
    return StringCodec.get().toPersistedFormat(key);
  }

  @Benchmark
  public ByteBuffer encodeReportingEncoder() throws CharacterCodingException {
    return StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(key));
  }

  @Benchmark
  public String decodeCodec() {
    return StringCodec.get().fromPersistedFormat(bytes);
  }

  @Benchmark
  public String decodeReportingDecoder() throws CharacterCodingException {
    return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes))
        .toString();
  }
}
