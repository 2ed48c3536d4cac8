package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.proto.om.BucketLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sediment rm -r} on an object-store prefix against a real server: one DeleteKeys call per
 * page of the server's cap, the summary line, the confirmation above
 * {@link RmCommand#CONFIRM_ABOVE} keys (asked on a terminal, refused without one unless
 * {@code --yes}, nothing deleted when refused), and the hidden per-key path kept for the
 * benchmark.
 */
class RmCommandTest {

  /** The server's page cap here: 1,001 keys are 11 pages. */
  private static final int CAP = 100;
  private static final int MANY = RmCommand.CONFIRM_ABOVE + 1;

  @TempDir
  Path dir;
  private OmMetadataStore om;
  private OmGrpcServer server;
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

  /** A terminal that answers with {@code answers}, in order, and records the questions. */
  private static final class FakeTerminal implements Terminal {
    final boolean interactive;
    final List<String> answers;
    final List<String> questions = new ArrayList<>();

    FakeTerminal(boolean interactive, String... answers) {
      this.interactive = interactive;
      this.answers = new ArrayList<>(List.of(answers));
    }

    @Override
    public boolean interactive() {
      return interactive;
    }

    @Override
    public String ask(String question) {
      questions.add(question);
      return answers.isEmpty() ? null : answers.remove(0);
    }
  }

  @BeforeEach
  void start() throws Exception {
    om = OmMetadataStore.open(dir.resolve("om"), OmStoreOptions.defaults().withMaxListSize(CAP)
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
    om.createVolume("vol", "o");
    om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
    ServerInterceptor counting = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call,
          io.grpc.Metadata headers, ServerCallHandler<Q, R> next) {
        calls.computeIfAbsent(call.getMethodDescriptor().getBareMethodName(),
            m -> new AtomicInteger()).incrementAndGet();
        return next.startCall(call, headers);
      }
    };
    server = OmGrpcServer.builder(om).port(0).interceptor(counting).build().start();
  }

  @AfterEach
  void stop() {
    server.shutdown(Duration.ofSeconds(5));
    om.close();
  }

  private void keys(String prefix, int n) {
    for (int i = 0; i < n; i++) {
      String k = String.format("%s%05d", prefix, i);
      om.commitKey("vol", "obs", k, om.openKey("vol", "obs", k, "o").clientId(), 1);
    }
  }

  private long live() {
    return om.counters().get(OmCounter.KEYS);
  }

  private int calls(String method) {
    AtomicInteger n = calls.get(method);
    return n == null ? 0 : n.get();
  }

  private Run rm(Terminal terminal, String... args) {
    CommandLine.IFactory factory = new CommandLine.IFactory() {
      @Override
      public <K> K create(Class<K> cls) throws Exception {
        return cls == RmCommand.class ? cls.cast(new RmCommand(terminal))
            : CommandLine.defaultFactory().create(cls);
      }
    };
    List<String> all = new ArrayList<>(List.of("rm"));
    all.addAll(List.of(args));
    all.addAll(List.of("--target", server.target()));
    return SedimentCommandTest.run(Sediment.commandLine(factory), all.toArray(String[]::new));
  }

  @Test
  void aSmallPrefixIsDeletedAPagePerCallWithASummaryAndNoQuestion() {
    keys("a/", 250);
    keys("b/", 3);
    FakeTerminal terminal = new FakeTerminal(false);
    Run r = rm(terminal, "-r", "vol/obs/a/");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().strip().matches("Deleted 250 keys under vol/obs/a/ \\(0 already gone, 0 "
        + "failed\\) in [0-9]+\\.[0-9]{2} s"), r.out());
    assertEquals(3, calls("DeleteKeys"), "250 keys at a cap of 100");
    assertEquals(0, calls("DeleteKey"));
    assertEquals(3, calls("ListObjectsV2"), "a count of at most the threshold lists once");
    assertEquals(List.of(), terminal.questions);
    assertEquals(3, live());
    assertEquals(om.countFromScan(), om.counters());
    assertFalse(r.err().contains("rm ["), "no progress without a terminal: " + r.err());
  }

  @Test
  void manyKeysWithoutATerminalAreRefusedUnlessYes() {
    keys("k", MANY);
    Run refused = rm(new FakeTerminal(false), "-r", "vol/obs/");
    assertEquals(1, refused.code(), refused.out());
    assertTrue(refused.err().contains("would delete " + MANY + " keys")
        && refused.err().contains("--yes") && refused.err().contains("Nothing deleted"),
        refused.err());
    assertEquals(MANY, live());
    assertEquals(0, calls("DeleteKeys"));

    Run yes = rm(new FakeTerminal(false), "-r", "vol/obs/", "--yes");
    assertEquals(0, yes.code(), yes.err());
    assertTrue(yes.out().startsWith("Deleted " + MANY + " keys under vol/obs/ (0 already gone, "
        + "0 failed)"), yes.out());
    assertEquals(11, calls("DeleteKeys"));
    assertEquals(0, live());
    assertEquals(om.countFromScan(), om.counters());
  }

  @Test
  void manyKeysOnATerminalAreDeletedOnlyWhenConfirmedWithProgress() {
    keys("k", MANY);
    FakeTerminal no = new FakeTerminal(true, "n");
    Run declined = rm(no, "-r", "vol/obs/k");
    assertEquals(1, declined.code());
    assertEquals(List.of("Delete " + MANY + " keys under vol/obs/k? [y/N] "), no.questions);
    assertTrue(declined.err().contains("nothing deleted"), declined.err());
    assertEquals(MANY, live());
    assertEquals(1, rm(new FakeTerminal(true), "-r", "vol/obs/k").code(), "end of input: no");
    assertEquals(MANY, live());

    Run confirmed = rm(new FakeTerminal(true, "yes"), "-r", "vol/obs/k");
    assertEquals(0, confirmed.code(), confirmed.err());
    assertTrue(confirmed.out().contains("Deleted " + MANY + " keys"), confirmed.out());
    assertTrue(confirmed.err().contains("rm [") && confirmed.err().contains(MANY + "/" + MANY
        + " keys"), "a progress bar on the terminal: " + confirmed.err());
    assertEquals(0, live());
  }

  /** The former path, one DeleteKey per key, stays reachable for the benchmark only. */
  @Test
  void thePerKeyPathDeletesTheSameKeysOneCallEach() {
    keys("p", 7);
    Run r = rm(new FakeTerminal(false), "-r", "vol/obs/p", "--per-key");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("Deleted 7 keys"), r.out());
    assertEquals(7, calls("DeleteKey"));
    assertEquals(0, calls("DeleteKeys"));
    Run help = rm(new FakeTerminal(false), "--help");
    assertFalse(help.out().contains("--per-key"), "hidden: " + help.out());
    assertTrue(help.out().contains("--yes"), help.out());
  }

  @Test
  void anEmptyPrefixDeletesNothingAndSaysSo() {
    Run r = rm(new FakeTerminal(true), "-r", "vol/obs/none");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("Deleted 0 keys under vol/obs/none (0 already gone, 0 failed) "
        + "in "), r.out());
    assertEquals(0, calls("DeleteKeys"));
  }
}
