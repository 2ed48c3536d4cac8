package io.sediment.cli;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.DeleteKeyResult;
import io.sediment.proto.om.DeleteKeysRequest;
import io.sediment.proto.om.DeleteKeysResponse;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListObjectsV2Response;
import io.sediment.proto.om.OmServiceGrpc.OmServiceBlockingStub;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Deletes every key under a prefix of an OBJECT_STORE or LEGACY bucket, page by page: each page of
 * the listing (ListObjectsV2 at the server's page cap, continued with its token, so no listing
 * walks back over the keys already deleted) is deleted by one DeleteKeys call, which the server
 * applies as one atomic write. Listing and deleting interleave: the next page is listed while one
 * is deleted, so at most two pages are held at a time.
 *
 * <p>A key the server reports already gone (deleted meanwhile) is counted, not an error; a key
 * it refuses (PERMISSION_DENIED, for the key or for a whole page none of whose keys the caller may
 * delete) is counted failed with its reason and the walk goes on. Any other error stops the walk
 * with a {@link CliFailure} saying how far it got.
 *
 * <p>{@code perKey} keeps the former path, one DeleteKey call per key, for measuring against it
 * ({@code dev-support/bin/bench-rm}); its outcomes are counted the same way.
 *
 * <p>Not thread-safe: one walk at a time (a walk lists on a thread of its own, ended with it).
 */
final class PrefixDelete {

  /** At most this many failed keys are kept with their reasons for the report. */
  static final int FAILURES_KEPT = 10;

  /** What a walk did so far. */
  static final class Tally {
    long deleted;
    long alreadyGone;
    long failed;
    /** The first {@link #FAILURES_KEPT} failures: "KEY: CODE: reason". */
    final List<String> failures = new ArrayList<>();

    void fail(String key, String code, String reason) {
      failed++;
      if (failures.size() < FAILURES_KEPT) {
        failures.add(key + ": " + code + (reason == null || reason.isEmpty() ? "" : ": " + reason));
      }
    }

    long seen() {
      return deleted + alreadyGone + failed;
    }
  }

  /** A listing counted to its end: the total and, if it was at most the limit, its pages. */
  record Count(long total, List<List<String>> pages) {}

  private final Supplier<OmServiceBlockingStub> stub;
  private final String volume;
  private final String bucket;
  private final String prefix;
  private final boolean perKey;

  /**
   * @param stub a stub with the command's deadline, asked once per call
   * @param prefix keys starting with it; empty for the whole bucket
   */
  PrefixDelete(Supplier<OmServiceBlockingStub> stub, String volume, String bucket, String prefix,
      boolean perKey) {
    this.stub = stub;
    this.volume = volume;
    this.bucket = bucket;
    this.prefix = prefix;
    this.perKey = perKey;
  }

  /** {@code volume/bucket/prefix}, for messages. */
  String where() {
    return volume + "/" + bucket + "/" + prefix;
  }

  /**
   * Lists to the end, counting keys; the pages are kept while the count is at most
   * {@code keepUpTo} (so a small delete lists once), else {@link Count#pages()} is null.
   */
  Count count(long keepUpTo) {
    List<List<String>> pages = new ArrayList<>();
    long total = 0;
    ByteString token = ByteString.EMPTY;
    do {
      ListObjectsV2Response r = page(token);
      total += r.getContentsCount();
      if (pages != null && total <= keepUpTo) {
        pages.add(names(r));
      } else {
        pages = null;
      }
      token = r.getNextContinuationToken();
    } while (!token.isEmpty());
    return new Count(total, pages);
  }

  /**
   * Lists and deletes page by page to the end of the listing. The next page is listed (on a
   * thread of its own) while the current one is deleted: its token starts after the current
   * page's last key, so the delete under way does not change what it lists.
   */
  Tally deleteAll(ProgressBar progress) {
    Tally tally = new Tally();
    ExecutorService lister = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "rm-lister");
      t.setDaemon(true);
      return t;
    });
    try {
      ListObjectsV2Response page = page(ByteString.EMPTY);
      while (true) {
        ByteString token = page.getNextContinuationToken();
        Future<ListObjectsV2Response> next = token.isEmpty() ? null
            : lister.submit(() -> page(token));
        delete(names(page), tally, progress);
        if (next == null) {
          return tally;
        }
        page = await(next);
      }
    } finally {
      lister.shutdownNow();
    }
  }

  /** The listed page, or the listing's own failure rethrown. */
  private static ListObjectsV2Response await(Future<ListObjectsV2Response> next) {
    try {
      return next.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliFailure("Interrupted while listing", e);
    }
  }

  /** Deletes {@code pages} (each at most the server's page cap), listed before. */
  Tally delete(List<List<String>> pages, ProgressBar progress) {
    Tally tally = new Tally();
    for (List<String> keys : pages) {
      delete(keys, tally, progress);
    }
    return tally;
  }

  private ListObjectsV2Response page(ByteString token) {
    return stub.get().listObjectsV2(ListObjectsV2Request.newBuilder().setVolume(volume)
        .setBucket(bucket).setPrefix(prefix).setContinuationToken(token).build());
  }

  private static List<String> names(ListObjectsV2Response r) {
    List<String> out = new ArrayList<>(r.getContentsCount());
    for (KeyInfo k : r.getContentsList()) {
      out.add(k.getKeyName());
    }
    return out;
  }

  private void delete(List<String> keys, Tally tally, ProgressBar progress) {
    if (keys.isEmpty()) {
      return;
    }
    try {
      if (perKey) {
        deleteEach(keys, tally);
      } else {
        deleteBatch(keys, tally);
      }
    } catch (StatusRuntimeException e) {
      throw new CliFailure("Deleted " + tally.deleted + " keys under " + where() + " ("
          + tally.alreadyGone + " already gone, " + tally.failed + " failed), then a delete "
          + "failed: " + e.getStatus().getCode() + ": " + e.getStatus().getDescription(), e);
    }
    progress.step(keys.size());
  }

  private void deleteBatch(List<String> keys, Tally tally) {
    DeleteKeysResponse r;
    try {
      r = stub.get().deleteKeys(DeleteKeysRequest.newBuilder().setVolume(volume)
          .setBucket(bucket).addAllKeys(keys).build());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.PERMISSION_DENIED) {
        throw e;
      }
      // The caller may delete none of this page's keys: each failed, for the same reason.
      keys.forEach(k -> tally.fail(k, e.getStatus().getCode().name(),
          e.getStatus().getDescription()));
      return;
    }
    for (DeleteKeyResult result : r.getResultsList()) {
      switch (result.getOutcome()) {
        case DELETED -> tally.deleted++;
        case NOT_FOUND -> tally.alreadyGone++;
        default -> tally.fail(result.getKey(), result.getErrorCode(), result.getMessage());
      }
    }
  }

  private void deleteEach(List<String> keys, Tally tally) {
    for (String key : keys) {
      try {
        stub.get().deleteKey(DeleteKeyRequest.newBuilder().setVolume(volume).setBucket(bucket)
            .setKey(key).build());
        tally.deleted++;
      } catch (StatusRuntimeException e) {
        switch (e.getStatus().getCode()) {
          case NOT_FOUND -> tally.alreadyGone++;
          case PERMISSION_DENIED -> tally.fail(key, e.getStatus().getCode().name(),
              e.getStatus().getDescription());
          default -> throw e;
        }
      }
    }
  }
}
