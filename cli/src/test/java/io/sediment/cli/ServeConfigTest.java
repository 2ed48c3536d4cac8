package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.db.DBProfile;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.ListVolumesRequest;
import io.sediment.proto.om.ListVolumesResponse;
import io.sediment.proto.om.OmServiceGrpc;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code serve --config FILE}, {@code SEDIMENT_*} variables and {@code --print-config}: the
 * precedence flag &gt; env &gt; file &gt; default, strict keys, errors that name where a bad value
 * came from, and settings that reach the running store and its log.
 */
class ServeConfigTest {

  @TempDir Path dir;

  /** One line of --print-config. */
  record Line(String value, String source) { }

  static Run run(Map<String, String> env, String... args) {
    return SedimentCommandTest.run(Sediment.commandLine(env), args);
  }

  /** Parses --print-config's output: key to value and source. */
  static Map<String, Line> parse(String out) {
    Map<String, Line> lines = new LinkedHashMap<>();
    for (String l : out.split("\n")) {
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      String[] f = l.split("\t", -1);
      assertEquals(3, f.length, l);
      assertTrue(lines.put(f[0], new Line(f[1], f[2])) == null, "one line per key: " + f[0]);
    }
    return lines;
  }

  private Path file(String name, String... lines) throws Exception {
    Path f = dir.resolve(name);
    Files.write(f, List.of(lines));
    return f;
  }

  @Test
  void aFlagBeatsTheEnvironmentWhichBeatsTheFileWhichBeatsTheDefault() throws Exception {
    Path conf = file("sediment.properties",
        "# a comment",
        "serve.page-cap = 10",
        "serve.drain-timeout=7",
        "serve.audit-reads=none",
        "serve.key-deleting-interval=5m",
        "serve.block-cache-size=64MiB");
    Map<String, String> env = Map.of(
        "SEDIMENT_SERVE_PAGE_CAP", "20",
        "SEDIMENT_SERVE_DRAIN_TIMEOUT", "8",
        "PATH", "/usr/bin");
    Path data = dir.resolve("data");
    Run r = run(env, "serve", "--config", conf.toString(), "--data", data.toString(),
        "--page-cap", "30", "--print-config");
    assertEquals(0, r.code(), r.err());
    Map<String, Line> c = parse(r.out());
    String fileSource = "file " + conf.toAbsolutePath().normalize();
    assertEquals(new Line("30", "flag"), c.get("serve.page-cap"));
    assertEquals(new Line("8", "env SEDIMENT_SERVE_DRAIN_TIMEOUT"), c.get("serve.drain-timeout"));
    assertEquals(new Line("none", fileSource), c.get("serve.audit-reads"));
    assertEquals(new Line("5m", fileSource), c.get("serve.key-deleting-interval"));
    assertEquals(new Line("64MiB", fileSource), c.get("serve.block-cache-size"));
    assertEquals(new Line("16", "default"), c.get("serve.handler-threads"));
    assertEquals(new Line("256MiB", "default"), run(Map.of(), "serve", "--print-config")
        .out().lines().filter(l -> l.startsWith("serve.block-cache-size\t"))
        .map(l -> parse(l).get("serve.block-cache-size")).findFirst().orElseThrow());
    assertEquals(new Line(data.toString(), "flag"), c.get("serve.data"));
    assertEquals(new Line(conf.toString(), "flag"), c.get("config"));
    assertFalse(Files.exists(data), "--print-config starts nothing and creates nothing");
  }

  @Test
  void printConfigListsEveryKeyOfServeOnceAndTheFileCanBeNamedByTheEnvironment()
      throws Exception {
    Path conf = file("env.properties", "serve.partition-pinning=NONE", "serve.log-level=DEBUG",
        "serve.admin=alice,bob", "serve.auth=true");
    Run r = run(Map.of("SEDIMENT_CONFIG", conf.toString()), "serve", "--print-config");
    assertEquals(0, r.code(), r.err());
    Map<String, Line> c = parse(r.out());
    CommandLine serve = Sediment.commandLine().getSubcommands().get("serve");
    Set<String> expected = new HashSet<>();
    for (OptionSpec o : serve.getCommandSpec().options()) {
      if (ConfigKeys.key(o) != null) {
        expected.add(ConfigKeys.key(o));
      }
    }
    assertEquals(expected, c.keySet());
    assertTrue(expected.size() > 40, "every serve option: " + expected);
    String fileSource = "file " + conf.toAbsolutePath().normalize();
    assertEquals(new Line(conf.toString(), "env SEDIMENT_CONFIG"), c.get("config"));
    assertEquals(new Line("NONE", fileSource), c.get("serve.partition-pinning"));
    assertEquals(new Line("DEBUG", fileSource), c.get("serve.log-level"));
    assertEquals(new Line("alice,bob", fileSource), c.get("serve.admin"));
    assertEquals(new Line("true", fileSource), c.get("serve.auth"));
    assertEquals(new Line("", "default"), c.get("serve.tls-cert"));
  }

  @Test
  void onlySettingsHaveKeysAndEachKeyItsOwnEnvironmentVariable() {
    Map<String, String> seen = new HashMap<>();
    collect(Sediment.commandLine(), seen);
    for (String key : seen.values()) {
      assertTrue(key.equals("config") || key.startsWith("serve.") || key.startsWith("client."),
          "a command's own arguments are no settings: " + key);
    }
    assertTrue(seen.containsKey("SEDIMENT_SERVE_TLS_CERT"), seen.keySet().toString());
    assertEquals("serve.tls-cert", seen.get("SEDIMENT_SERVE_TLS_CERT"));
    assertEquals("client.target", seen.get("SEDIMENT_CLIENT_TARGET"));
    assertEquals("client.tls-ca", seen.get("SEDIMENT_CLIENT_TLS_CA"));
    assertEquals("client.token-file", seen.get("SEDIMENT_CLIENT_TOKEN_FILE"));
    assertEquals("config", seen.get("SEDIMENT_CONFIG"));
    assertEquals("serve.data", seen.get("SEDIMENT_SERVE_DATA"));
    assertFalse(seen.containsKey(ClientTlsOptions.TOKEN_ENV));
  }

  private static void collect(CommandLine cmd, Map<String, String> seen) {
    for (OptionSpec o : cmd.getCommandSpec().options()) {
      String key = ConfigKeys.key(o);
      if (key != null) {
        String previous = seen.put(ConfigKeys.env(key), key);
        assertTrue(previous == null || previous.equals(key),
            ConfigKeys.env(key) + " names both " + previous + " and " + key);
      }
    }
    cmd.getSubcommands().values().forEach(sub -> collect(sub, seen));
  }

  @Test
  void anUnknownKeyIsAUsageErrorNamingTheKeyAndTheFile() throws Exception {
    Path conf = file("typo.properties", "serve.page-cap=10", "serve.page-capp=20");
    Path data = dir.resolve("data");
    Run r = run(Map.of(), "serve", "--config", conf.toString(), "--data", data.toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("Unknown key 'serve.page-capp'"), r.err());
    assertTrue(r.err().contains(conf.toAbsolutePath().normalize().toString()), r.err());
    assertTrue(r.err().contains("did you mean 'serve.page-cap'"), r.err());
    assertFalse(Files.exists(data), "nothing started");
    Run nested = run(Map.of(), "serve", "--config", file("nested.properties",
        "config=other.properties").toString(), "--print-config");
    assertEquals(2, nested.code(), nested.err());
    assertTrue(nested.err().contains("Unknown key 'config'"), nested.err());
    assertTrue(nested.err().contains("cannot name another"), nested.err());
    Run missing = run(Map.of(), "serve", "--config", dir.resolve("absent.properties").toString(),
        "--print-config");
    assertEquals(2, missing.code(), missing.err());
    assertTrue(missing.err().contains("Cannot read the configuration file"), missing.err());
  }

  @Test
  void aBadValueNamesItsKeyAndWhereItCameFrom() throws Exception {
    Path conf = file("bad.properties", "serve.page-cap=lots");
    Run fromFile = run(Map.of(), "serve", "--config", conf.toString(), "--print-config");
    assertEquals(2, fromFile.code(), fromFile.err());
    assertTrue(fromFile.err().contains("'lots'"), fromFile.err());
    assertTrue(fromFile.err().contains("key serve.page-cap in "
        + conf.toAbsolutePath().normalize()), fromFile.err());

    Run fromEnv = run(Map.of("SEDIMENT_SERVE_KEY_DELETING_INTERVAL", "60"), "serve",
        "--print-config");
    assertEquals(2, fromEnv.code(), fromEnv.err());
    assertTrue(fromEnv.err().contains("--key-deleting-interval is set by the environment "
        + "variable SEDIMENT_SERVE_KEY_DELETING_INTERVAL"), fromEnv.err());

    // A value of the right type that the option refuses: the check's message gets the source.
    Path zero = file("zero.properties", "serve.page-cap=0");
    Run refused = run(Map.of(), "serve", "--config", zero.toString(), "--print-config");
    assertEquals(2, refused.code(), refused.err());
    assertTrue(refused.err().contains("--page-cap must be at least 1: 0 [--page-cap is set by "
        + "key serve.page-cap in " + zero.toAbsolutePath().normalize() + "]"), refused.err());

    // The same refusal from the command line names no other source.
    Run flag = run(Map.of(), "serve", "--config", zero.toString(), "--page-cap", "-1",
        "--print-config");
    assertEquals(2, flag.code(), flag.err());
    assertTrue(flag.err().contains("--page-cap must be at least 1: -1"), flag.err());
    assertFalse(flag.err().contains("is set by"), flag.err());

    Run pinning = run(Map.of("SEDIMENT_SERVE_PARTITION_PINNING", "SOME"), "serve",
        "--print-config");
    assertEquals(2, pinning.code(), pinning.err());
    assertTrue(pinning.err().contains("SEDIMENT_SERVE_PARTITION_PINNING"), pinning.err());

    Run options = run(Map.of(), "serve", "--rocksdb-options",
        dir.resolve("absent.ini").toString(), "--print-config");
    assertEquals(2, options.code(), options.err());
    assertTrue(options.err().contains("--rocksdb-options names no readable file"), options.err());
  }

  @Test
  void helpStillWorksWithAConfigurationFileThatWouldBeRefused() throws Exception {
    Path conf = file("typo.properties", "serve.nonsense=1");
    Run r = run(Map.of("SEDIMENT_CONFIG", conf.toString()), "serve", "--help");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("--print-config"), r.out());
  }

  @Test
  void theFilesSettingsReachTheServedStoreAndItsLog() throws Exception {
    Path data = dir.resolve("data");
    Path logFile = dir.resolve("logs-elsewhere").resolve("server.log");
    Path conf = file("serve.properties",
        "serve.data=" + data,
        "serve.port=0",
        "serve.recon-port=0",
        "serve.no-recon=true",
        "serve.sync=PROCESS_CRASH_SAFE",
        "serve.drain-timeout=5",
        "serve.page-cap=3",
        "serve.metadata-cache-size=0",
        "serve.block-cache-size=48MiB",
        "serve.partition-pinning=ALL",
        "serve.log-level=DEBUG",
        "serve.log-file=" + logFile);
    CommandLine cmd = Sediment.commandLine(Map.of());
    ServeCommand serve = cmd.getSubcommands().get("serve").getCommand();
    serve.installShutdownHook = false;
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(new StringWriter()));
    cmd.setErr(new PrintWriter(err));
    AtomicInteger code = new AtomicInteger(-1);
    Thread serving = new Thread(() -> code.set(cmd.execute("serve", "--config",
        conf.toString())));
    serving.start();
    LoggerContext logback = (LoggerContext) LoggerFactory.getILoggerFactory();
    try {
      assertTrue(serve.started.await(60, TimeUnit.SECONDS), err.toString());
      assertEquals(Level.DEBUG, logback.getLogger("io.sediment").getLevel());
      assertTrue(logback.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("SEDIMENT_FILE")
          instanceof RollingFileAppender<?> rolling
          && rolling.getFile().equals(logFile.toString())
          && rolling.getRollingPolicy() instanceof SizeAndTimeBasedRollingPolicy<?> policy
          && policy.getFileNamePattern().equals(logFile.resolveSibling(
              "server-%d{yyyy-MM-dd,UTC}.%i.log.gz").toString()),
          "logback rolls the configured file over beside it");
      DBProfile profile = serve.opened.profile();
      assertEquals(48L << 20, profile.blockCacheBytes());
      assertEquals(48L << 20, serve.opened.dbStore().getLongProperty("keyTable",
          "rocksdb.block-cache-capacity"), "the store's block cache has the configured size");
      assertEquals(DBProfile.PartitionPinning.ALL,
          serve.opened.dbStore().partitionPinning().requested());
      assertEquals(3, serve.opened.options().maxListSize());
      assertEquals(0, serve.opened.options().metadataCacheSize());
      ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1",
          serve.server.port(), InsecureChannelCredentials.create()).build();
      try {
        OmServiceGrpc.OmServiceBlockingStub om = OmServiceGrpc.newBlockingStub(channel)
            .withDeadlineAfter(60, TimeUnit.SECONDS);
        for (int i = 0; i < 5; i++) {
          om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol" + i).build());
        }
        ListVolumesResponse page = om.listVolumes(ListVolumesRequest.getDefaultInstance());
        assertEquals(3, page.getVolumesCount(), "a page of the file's page cap");
        assertTrue(page.getTruncated());
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    } finally {
      serve.requestStop();
      serving.join(60_000);
    }
    assertEquals(0, code.get(), err.toString());
    assertTrue(Files.isDirectory(data.resolve("om")), "the store is under the file's data dir");
    String log = Files.readString(logFile);
    assertTrue(log.contains("Serving "), log);
    assertTrue(log.contains(" DEBUG "), "the file's level reaches the log: " + log);
    assertTrue(log.contains("serve.page-cap\t3\tfile " + conf.toAbsolutePath().normalize()),
        "at DEBUG the log has the effective configuration: " + log);
    assertTrue(logback.getLogger("io.sediment").getLevel() != Level.DEBUG,
        "serve restores the level when it stops");
  }

  @Test
  void clientCommandsShareTheClientSectionOfTheSameFile() throws Exception {
    ServeBackgroundServicesTest.serveWith(dir.resolve("data"), List.of("--no-recon"), channel -> {
      OmServiceGrpc.OmServiceBlockingStub om = OmServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(60, TimeUnit.SECONDS);
      om.createVolume(CreateVolumeRequest.newBuilder().setVolume("shared-vol").build());
      String target = channel.authority();
      try {
        Path conf = file("client.properties", "client.target=" + target, "client.timeout=30",
            "serve.page-cap=2");
        Run ls = run(Map.of("SEDIMENT_CONFIG", conf.toString()), "ls");
        assertEquals(0, ls.code(), ls.err());
        assertTrue(ls.out().contains("shared-vol"), ls.out());

        Run envWins = run(Map.of("SEDIMENT_CLIENT_TARGET", "127.0.0.1:1",
            "SEDIMENT_CLIENT_TIMEOUT", "2"), "ls", "--config", conf.toString());
        assertEquals(1, envWins.code(), "the environment's unreachable target: " + envWins.out());
        Run flagWins = run(Map.of("SEDIMENT_CLIENT_TARGET", "127.0.0.1:1"), "ls", "--config",
            conf.toString(), "--target", target);
        assertEquals(0, flagWins.code(), flagWins.err());
        assertTrue(flagWins.out().contains("shared-vol"), flagWins.out());

        Path typo = file("typo-client.properties", "client.targett=" + target);
        Run refused = run(Map.of(), "ls", "--config", typo.toString());
        assertEquals(2, refused.code(), refused.err());
        assertTrue(refused.err().contains("Unknown key 'client.targett'"), refused.err());
        assertTrue(refused.err().contains("did you mean 'client.target'"), refused.err());
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
  }

  @Test
  void commandsOpeningAStoppedStoreFindServesDataDirectory() throws Exception {
    Path data = dir.resolve("configured-data");
    Path conf = file("data.properties", "serve.data=" + data);
    String noStore = "No store at " + data.toAbsolutePath().normalize();
    for (String command : List.of("verify", "ldb")) {
      List<String> own = command.equals("ldb") ? List.of("--table", "volumeTable") : List.of();
      List<String> args = new java.util.ArrayList<>(List.of(command, "--config", conf.toString()));
      args.addAll(own);
      Run fromFile = run(Map.of(), args.toArray(String[]::new));
      assertEquals(1, fromFile.code(), command + ": " + fromFile.out() + fromFile.err());
      assertTrue(fromFile.err().contains(noStore), fromFile.err());
      List<String> plain = new java.util.ArrayList<>(List.of(command));
      plain.addAll(own);
      Run fromEnv = run(Map.of("SEDIMENT_SERVE_DATA", data.toString()),
          plain.toArray(String[]::new));
      assertEquals(1, fromEnv.code(), command + ": " + fromEnv.out() + fromEnv.err());
      assertTrue(fromEnv.err().contains(noStore), fromEnv.err());
    }
    Run flag = run(Map.of("SEDIMENT_SERVE_DATA", data.toString()), "verify", "--data",
        dir.resolve("flagged").toString());
    assertTrue(flag.err().contains(dir.resolve("flagged").toAbsolutePath().normalize()
        .toString()), flag.err());
  }

  @Test
  void theSampleFileAndReadmeNameEveryKeyAndTheSamplesDefaultsAreTheDefaults() throws Exception {
    Set<String> keys = ConfigKeys.fileKeys(Sediment.commandLine().getCommandSpec()).keySet();
    assertTrue(keys.contains("serve.block-cache-size") && keys.contains("client.target"), keys
        .toString());
    Path sample = Path.of("..", "dev-support", "conf", "sediment.properties");
    List<String> uncommented = new java.util.ArrayList<>();
    Set<String> listed = new HashSet<>();
    for (String line : Files.readAllLines(sample)) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("^#([a-z][a-z.-]*)=(.*)$")
          .matcher(line);
      if (m.matches()) {
        assertTrue(listed.add(m.group(1)), "listed once: " + m.group(1));
        uncommented.add(m.group(1) + "=" + m.group(2));
      }
    }
    assertEquals(keys, listed, "the sample lists every key of the file");
    String readme = Files.readString(Path.of("..", "README.md"));
    for (String key : keys) {
      assertTrue(readme.contains("| `" + key + "` | `" + ConfigKeys.env(key) + "` |"),
          "README's table has " + key);
    }
    Path all = file("all.properties", uncommented.toArray(String[]::new));
    Run withSample = run(Map.of(), "serve", "--config", all.toString(), "--print-config");
    Run without = run(Map.of(), "serve", "--print-config");
    assertEquals(0, withSample.code(), withSample.err());
    Map<String, Line> a = parse(withSample.out());
    Map<String, Line> b = parse(without.out());
    for (String key : b.keySet()) {
      if (!key.equals("config")) {
        assertEquals(b.get(key).value(), a.get(key).value(), "the sample's default of " + key);
      }
    }
  }

  /** Runs serve with {@code env} and {@code args} in a thread, hands it to {@code body}, stops it. */
  private static void serving(Map<String, String> env, List<String> args,
      java.util.function.Consumer<ServeCommand> body) throws Exception {
    CommandLine cmd = Sediment.commandLine(env);
    ServeCommand serve = cmd.getSubcommands().get("serve").getCommand();
    serve.installShutdownHook = false;
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(new StringWriter()));
    cmd.setErr(new PrintWriter(err));
    AtomicInteger code = new AtomicInteger(-1);
    List<String> all = new java.util.ArrayList<>(List.of("serve", "--port", "0", "--no-recon",
        "--sync", "PROCESS_CRASH_SAFE", "--drain-timeout", "5"));
    all.addAll(args);
    Thread serving = new Thread(() -> code.set(cmd.execute(all.toArray(String[]::new))));
    serving.start();
    try {
      assertTrue(serve.started.await(60, TimeUnit.SECONDS), err.toString());
      body.accept(serve);
    } finally {
      serve.requestStop();
      serving.join(60_000);
    }
    assertEquals(0, code.get(), err.toString());
  }

  @Test
  void aRocksDbOptionsFileFromTheEnvironmentReplacesTheProfile() throws Exception {
    Path first = dir.resolve("first");
    serving(Map.of(), List.of("--data", first.toString()), serve -> {
      assertTrue(serve.opened.dbStore().partitionPinning().budgetBytes() > 0,
          "AUTO with the profile's own options weighs the files against the cache");
      assertTrue(serve.opened.profile().optionsFile().isEmpty());
    });
    Path written;
    try (java.util.stream.Stream<Path> files = Files.list(first.resolve("om"))) {
      written = files.filter(f -> f.getFileName().toString().startsWith("OPTIONS-"))
          .findFirst().orElseThrow();
    }
    Path ini = Files.copy(written, dir.resolve("tuned.ini"));
    serving(Map.of("SEDIMENT_SERVE_ROCKSDB_OPTIONS", ini.toString()),
        List.of("--data", dir.resolve("second").toString()), serve -> {
          assertEquals(java.util.Optional.of(ini.toAbsolutePath().normalize()),
              serve.opened.profile().optionsFile());
          assertEquals(-1, serve.opened.dbStore().partitionPinning().budgetBytes(),
              "a store opened with an OPTIONS file pins as the file says");
          serve.opened.createVolume("tuned", "alice");
          assertEquals("alice", serve.opened.getVolumeInfo("tuned").getOwner());
        });
  }

  @Test
  void sizesTakeBinaryUnitsAndPrintInTheLargestExactOne() {
    assertEquals(256L << 20, Sizes.parse("256MiB"));
    assertEquals(1L << 30, Sizes.parse("1g"));
    assertEquals(1L << 30, Sizes.parse("1 GiB"));
    assertEquals(4096, Sizes.parse("4096"));
    assertEquals("256MiB", Sizes.format(256L << 20));
    assertEquals("1536KiB", Sizes.format(1536L << 10));
    assertEquals("1000", Sizes.format(1000));
    assertEquals(DBProfile.defaults().blockCacheBytes(),
        Sizes.parse(ServeStoreOptions.DEFAULT_BLOCK_CACHE));
    for (String bad : List.of("", "MiB", "-1", "1.5g", "9999999999999t", "12 parsecs")) {
      CommandLine.TypeConversionException e = org.junit.jupiter.api.Assertions.assertThrows(
          CommandLine.TypeConversionException.class, () -> Sizes.parse(bad), bad);
      assertNotNull(e.getMessage());
    }
  }
}
