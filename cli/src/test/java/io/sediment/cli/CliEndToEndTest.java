package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.cli.SedimentCommandTest.Run;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The commands together, as an operator runs them: serve (in a thread, port 0), load, ls in every
 * form, tombstones, compact, checkpoint, a second serve on the same data, stop, ldb on the stopped
 * store, and load straight into a data directory.
 */
class CliEndToEndTest {

  @TempDir Path dir;

  @Test
  void serveLoadListAdministerStopAndInspect() throws Exception {
    Path data = dir.resolve("data");
    CommandLine serveCmd = Sediment.commandLine();
    ServeCommand serve = serveCmd.getSubcommands().get("serve").getCommand();
    serve.installShutdownHook = false;
    StringWriter serveOut = new StringWriter();
    serveCmd.setOut(new PrintWriter(serveOut));
    StringWriter serveErr = new StringWriter();
    serveCmd.setErr(new PrintWriter(serveErr));
    AtomicInteger serveCode = new AtomicInteger(-1);
    Thread serving = new Thread(() -> serveCode.set(serveCmd.execute("serve", "--data",
        data.toString(), "--port", "0", "--recon-port", "0", "--sync", "PROCESS_CRASH_SAFE",
        "--drain-timeout", "5")));
    serving.start();
    try {
      assertTrue(serve.started.await(60, TimeUnit.SECONDS), serveErr.toString());
      String target = serve.server.target();
      assertTrue(serveOut.toString().contains("listening on " + target), serveOut.toString());
      assertTrue(serveOut.toString().contains("Ctrl-C"), serveOut.toString());

      Run load = run("load", "--target", target, "--volumes", "2", "--buckets", "2", "--keys",
          "50", "--open-keys", "3", "--delete-fraction", "0.2", "--fso-buckets", "1",
          "--depth", "3", "--fanout", "2", "--files-per-dir", "2",
          "--multipart-uploads", "1", "--no-snapshots");
      assertEquals(0, load.code(), load.err());
      assertTrue(load.err().contains("load ["), "a progress bar on stderr: " + load.err());
      assertTrue(load.out().contains("Loaded 2 volumes, 4 OBS buckets"), load.out());
      assertTrue(load.out().contains("Multipart uploads in each OBS bucket: 1 completed"),
          load.out());
      assertFalse(load.out().contains("Snapshot"), "--no-snapshots: " + load.out());
      assertTrue(load.out().contains("Created 2 FSO buckets, each a tree of 14 directories (depth "
          + "3, fanout 2) and 30 files; deleted dir-0/dir-1, dir-1/dir-1 of each recursively (6 "
          + "directories and 12 files wait for the directory purge), leaving 26 entries."),
          load.out());
      assertFalse(load.out().contains("Skipped"), load.out());

      Run volumes = run("ls", "--target", target);
      assertEquals(0, volumes.code(), volumes.err());
      assertEquals(2, volumes.out().lines().count(), volumes.out());
      assertTrue(volumes.out().contains("load-v000") && volumes.out().contains("load-v001"));
      Run viaList = run("ls", "--target", "127.0.0.1:1," + target, "--timeout", "10");
      assertEquals(volumes.out(), viaList.out(),
          "of several targets, the one that answers and serves alone is used: " + viaList.err());
      Run haStatus = run("ha", "status", "--target", target);
      assertEquals(Sediment.EXIT_FAILURE, haStatus.code(), "no group, so no leader");
      assertTrue(haStatus.out().contains("SINGLE"), haStatus.out());

      Run buckets = run("ls", "load-v000", "--target", target);
      assertEquals(List.of("fso-000", "obs-000", "obs-001"), buckets.out().lines()
          .map(l -> l.substring(l.lastIndexOf(' ') + 1)).toList());

      Run top = run("ls", "load-v000/obs-000", "--target", target);
      assertEquals(0, top.code(), top.err());
      assertTrue(top.out().lines().anyMatch(l -> l.trim().equals("PRE dir-00/")), top.out());

      Run all = run("ls", "load-v000/obs-000/dir-", "--recursive", "--page-size", "7", "--json",
          "--target", target);
      assertEquals(0, all.code(), all.err());
      List<String> lines = all.out().lines().toList();
      assertEquals(40, lines.size(), "50 keys less a band of 10 deleted");
      assertTrue(lines.stream().allMatch(l -> l.startsWith("{") && l.contains("\"keyName\"")));
      assertFalse(all.out().contains("key-000012"), "the deleted band starts at key 12");

      // FSO: ListStatus, directories as PRE lines, files with their sizes.
      Run fsoTop = run("ls", "load-v000/fso-000", "--target", target);
      assertEquals(0, fsoTop.code(), fsoTop.err());
      List<String> top2 = fsoTop.out().lines().toList();
      assertEquals(4, top2.size(), fsoTop.out());
      assertEquals("PRE dir-0/", top2.get(0).trim());
      assertEquals("PRE dir-1/", top2.get(1).trim());
      assertTrue(top2.get(2).endsWith(" file-0") && top2.get(3).endsWith(" file-1"), fsoTop.out());
      Run fsoAll = run("ls", "load-v000/fso-000", "-r", "--page-size", "5", "--target", target);
      List<String> tree = fsoAll.out().lines().map(l -> l.substring(l.lastIndexOf(' ') + 1))
          .toList();
      assertEquals(26, tree.size(), "14 directories and 30 files less 2 deleted subtrees of 3 "
          + "directories and 6 files each: " + fsoAll.out());
      assertTrue(tree.stream().noneMatch(p -> p.startsWith("dir-0/dir-1")), fsoAll.out());
      assertEquals(List.of("dir-0/", "dir-0/dir-0/", "dir-0/dir-0/dir-0/",
          "dir-0/dir-0/dir-0/file-0", "dir-0/dir-0/dir-0/file-1", "dir-0/dir-0/dir-1/"),
          tree.subList(0, 6), "depth first, a directory before its subtree");
      Run fsoAfter = run("ls", "load-v000/fso-000", "-r", "--start-after", "dir-1", "--target",
          target);
      assertEquals(tree.subList(tree.indexOf("dir-1/") + 1, tree.size()), fsoAfter.out().lines()
          .map(l -> l.substring(l.lastIndexOf(' ') + 1)).toList());
      Run fsoDir = run("ls", "load-v000/fso-000/dir-1/", "--json", "--target", target);
      List<String> dir1 = fsoDir.out().lines().toList();
      assertEquals(3, dir1.size(), fsoDir.out());
      assertTrue(dir1.get(0).contains("\"path\":\"dir-1/dir-0\"")
          && dir1.get(0).contains("\"isDirectory\":true"), dir1.get(0));
      assertTrue(dir1.get(2).contains("\"path\":\"dir-1/file-1\""), dir1.get(2));

      Run after = run("ls", "load-v000/obs-000", "--recursive", "--prefix", "dir-00/sub-00/",
          "--start-after", "dir-00/sub-00/key-000040", "--target", target);
      assertEquals(9, after.out().lines().count(), after.out());

      Run rmKey = run("rm", "load-v000/obs-001/dir-00/sub-00/key-000000", "--target", target);
      assertEquals(0, rmKey.code(), rmKey.err());
      Run rmPrefix = run("rm", "-r", "load-v000/obs-001/dir-00/sub-00/key-00004", "--target",
          target);
      assertEquals(0, rmPrefix.code(), rmPrefix.err());
      assertTrue(rmPrefix.out().contains("Deleted 10 keys"), rmPrefix.out());
      assertEquals(30, run("ls", "load-v000/obs-001", "-r", "--target", target).out().lines()
          .count(), "40 live keys less 11 removed, plus the completed multipart upload");
      Run notEmpty = run("rm", "load-v000/obs-001", "--target", target);
      assertEquals(1, notEmpty.code());
      assertTrue(notEmpty.err().contains("FAILED_PRECONDITION"), notEmpty.err());
      assertEquals(0, run("rm", "-r", "load-v000/obs-001", "--target", target).code());
      assertEquals(0, run("rm", "load-v000/obs-001", "--target", target).code());
      assertEquals(2, run("ls", "load-v000", "--target", target).out().lines().count());

      // FSO: rm takes a file or directory path; -r moves a directory (or the root's entries)
      // to the directory purge in one step each.
      String fso = "load-v001/fso-000";
      Run rmFile = run("rm", fso + "/file-0", "--target", target);
      assertEquals(0, rmFile.code(), rmFile.err());
      assertEquals("Deleted file " + fso + "/file-0", rmFile.out().trim());
      Run rmDirNotEmpty = run("rm", fso + "/dir-0", "--target", target);
      assertEquals(1, rmDirNotEmpty.code());
      assertTrue(rmDirNotEmpty.err().contains("FAILED_PRECONDITION"), rmDirNotEmpty.err());
      Run rmDir = run("rm", "-r", fso + "/dir-0", "--target", target);
      assertEquals(0, rmDir.code(), rmDir.err());
      assertTrue(rmDir.out().contains("Deleted directory " + fso + "/dir-0 and its subtree"),
          rmDir.out());
      Run afterRm = run("ls", fso, "--target", target);
      assertEquals(0, afterRm.code(), afterRm.err());
      assertEquals(List.of("dir-1/", "file-1"), afterRm.out().lines()
          .map(l -> l.substring(l.lastIndexOf(' ') + 1)).toList());
      Run fileAsDir = run("rm", fso + "/file-1/", "--target", target);
      assertEquals(1, fileAsDir.code());
      assertTrue(fileAsDir.err().contains("is a file, not a directory"), fileAsDir.err());
      for (String contents : List.of(fso + "/", fso + "//")) {
        Run noR = run("rm", contents, "--target", target);
        assertEquals(2, noR.code(), contents + " without -r is a usage error: " + noR.out());
        assertTrue(noR.err().contains("delete it with -r"), noR.err());
      }
      Run rmMissing = run("rm", fso + "/dir-0", "--target", target);
      assertEquals(1, rmMissing.code());
      assertTrue(rmMissing.err().contains("NOT_FOUND"), rmMissing.err());
      Run rmRoot = run("rm", "-r", fso + "/", "--target", target);
      assertEquals(0, rmRoot.code(), rmRoot.err());
      assertTrue(rmRoot.out().contains("Deleted 1 files and 1 directories at the top of " + fso
          + "/"), rmRoot.out());
      Run emptied = run("ls", fso, "-r", "--target", target);
      assertEquals(0, emptied.code(), emptied.err());
      assertEquals("", emptied.out());
      Run rmRootNoSlash = run("rm", "-r", "load-v000/fso-000", "--target", target);
      assertEquals(0, rmRootNoSlash.code(), rmRootNoSlash.err());
      assertTrue(rmRootNoSlash.out().contains("Deleted 2 files and 2 directories at the top of "
          + "load-v000/fso-000/"), rmRootNoSlash.out());

      // Snapshots of a bucket: create (named and generated), ls, rm, ls --all.
      String obs = "load-v000/obs-000";
      Run snap = run("snapshot", "create", obs, "snap-a", "--target", target);
      assertEquals(0, snap.code(), snap.err());
      assertTrue(snap.out().startsWith("Created snapshot snap-a of " + obs + " (id "), snap.out());
      Run generated = run("snapshot", "create", obs, "--target", target);
      assertEquals(0, generated.code(), generated.err());
      assertTrue(generated.out().startsWith("Created snapshot s"), generated.out());
      List<String> snaps = run("snapshot", "ls", obs, "--target", target).out().lines().toList();
      assertEquals(2, snaps.size(), snaps.toString());
      assertTrue(snaps.get(1).endsWith(" ACTIVE  snap-a"), snaps.toString());
      Run snapRm = run("snapshot", "rm", obs, "snap-a", "--target", target);
      assertEquals(0, snapRm.code(), snapRm.err());
      assertEquals("Deleted snapshot snap-a of " + obs, snapRm.out().trim());
      assertEquals(1, run("snapshot", "ls", obs, "--target", target).out().lines().count());
      List<String> withDeleted = run("snapshot", "ls", obs, "--all", "--json", "--target", target)
          .out().lines().toList();
      assertEquals(2, withDeleted.size(), withDeleted.toString());
      assertTrue(withDeleted.get(1).contains("\"name\":\"snap-a\"")
          && withDeleted.get(1).contains("SNAPSHOT_DELETED"), withDeleted.get(1));
      Run snapGone = run("snapshot", "rm", obs, "snap-a", "--target", target);
      assertEquals(1, snapGone.code());
      assertTrue(snapGone.err().contains("NOT_FOUND"), snapGone.err());
      assertEquals(2, run("snapshot", "ls", "load-v000", "--target", target).code(),
          "a path that is not VOLUME/BUCKET is a usage error");
      assertEquals(1, run("snapshot", "ls", obs + "/", "--target", target).out().lines().count(),
          "a trailing '/' is ignored");

      Run tomb = run("tombstones", "--target", target);
      assertEquals(0, tomb.code(), tomb.err());
      assertTrue(tomb.out().contains("keyTable") && tomb.out().contains("MEM_DELETES"),
          tomb.out());
      Run tombJson = run("tombstones", "--target", target, "--table", "keyTable", "--json");
      assertTrue(tombJson.out().trim().startsWith("{") && tombJson.out().contains("keyTable"));

      Run compact = run("compact", "--table", "keyTable", "--target", target);
      assertEquals(0, compact.code(), compact.err());
      assertTrue(compact.out().contains("keyTable") && compact.out().contains("-> 0"),
          compact.out());
      Run compactAll = run("compact", "--target", target);
      assertEquals(0, compactAll.code(), compactAll.err());
      assertEquals(io.sediment.om.core.OmDBDefinition.DEFINITION.tables().size(),
          compactAll.out().lines().count(), compactAll.out());

      assertTrue(serveOut.toString().contains("checkpoints: under "
          + data.resolve("checkpoints").toRealPath()), serveOut.toString());
      Path checkpoint = data.resolve("checkpoints/cp");
      Run cp = run("checkpoint", "cp", "--target", target);
      assertEquals(0, cp.code(), cp.err());
      assertTrue(Files.isRegularFile(checkpoint.resolve("CURRENT")));
      assertEquals(1, run("checkpoint", checkpoint.toString(), "--target", target).code(),
          "an existing checkpoint directory is refused");
      Run outside = run("checkpoint", dir.resolve("cp").toString(), "--target", target);
      assertEquals(1, outside.code());
      assertTrue(outside.err().contains("INVALID_ARGUMENT")
          && outside.err().contains(data.resolve("checkpoints").toString()), outside.err());
      assertFalse(Files.exists(dir.resolve("cp")), "nothing is written outside the root");

      Run second = run("serve", "--data", data.toString(), "--port", "0", "--recon-port", "0");
      assertEquals(1, second.code());
      assertTrue(second.err().contains("in use") && second.err().contains("LOCK"), second.err());

      Run badName = run("ls", "NO_SUCH/bucket", "--target", target);
      assertEquals(1, badName.code());
      assertTrue(badName.err().contains("INVALID_ARGUMENT"), badName.err());
    } finally {
      serve.requestStop();
      serving.join(30_000);
    }
    assertEquals(0, serveCode.get(), serveErr.toString());
    assertTrue(serveOut.toString().contains("Stopped"), serveOut.toString());
    Path log = data.resolve("logs").resolve("sediment.log");
    assertTrue(Files.readString(log).contains("Serving"), "serve logs to a file under the data dir");

    Run ldb = run("ldb", "--data", data.toString(), "--table", "keyTable", "--prefix",
        "/load-v000/obs-000/", "--limit", "5");
    assertEquals(0, ldb.code(), ldb.err());
    List<String> rows = ldb.out().lines().toList();
    assertEquals(5, rows.size(), ldb.out());
    assertTrue(rows.get(0).startsWith("{\"key\":\"/load-v000/obs-000/dir-00/sub-00/key-000000\","
        + "\"value\":{\"volumeName\":\"load-v000\""), rows.get(0));
    Run meta = run("ldb", "--data", data.toString(), "--table", "metaTable", "--limit", "1");
    assertTrue(meta.out().contains("\"value\":\""), "byte values print as base64: " + meta.out());

    Run direct = run("load", "--data", data.toString(), "--name-prefix", "direct", "--volumes",
        "1", "--buckets", "1", "--keys", "20", "--no-progress");
    assertEquals(0, direct.code(), direct.err());
    assertFalse(direct.err().contains("load ["), "--no-progress");
    Run volumesTable = run("ldb", "--data", data.toString(), "--table", "volumeTable");
    assertEquals(3, volumesTable.out().lines().count(), volumesTable.out());
    assertTrue(volumesTable.out().contains("\"/direct-v000\""), volumesTable.out());
  }
}
