package io.sediment.om.bulk;

import io.sediment.db.TableBulkLoad;
import io.sediment.om.acl.DefaultAcls;
import io.sediment.om.bulk.NamespaceLayout.Bucket;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.ReplicationConfigs;
import io.sediment.om.fso.FsoDirectories;
import io.sediment.om.fso.FsoFiles;
import io.sediment.om.keys.ObjectKeys;
import io.sediment.om.multipart.MultipartRows;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.PartInfo;
import io.sediment.proto.om.ReplicationConfig;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The rows of a {@link NamespaceLayout}, generated table by table in each table's key order and
 * added to that table's {@link TableBulkLoad}. Every row is built by the same static factory the
 * write path uses ({@link ObjectKeys#openRow} then {@link ObjectKeys#committedRow},
 * {@link MultipartRows#upload}, {@link FsoDirectories#newRow}, ...) with the ids and time
 * the equivalent writes would have, keyed by {@link OmKeys} and encoded by the table's codecs, so
 * nothing here is a second encoding. A new bucket has no prefix ACLs, so its keys, files and
 * directories inherit its own DEFAULT entries, as they would through the write path.
 *
 * <p>The methods for different tables may run in parallel threads; each one is single-threaded.
 */
final class NamespaceRows {

  private final NamespacePlan plan;
  private final NamespaceLayout layout;
  private final FsoTreeLayout tree;
  private final long now;
  private final ReplicationConfig defaultReplication;
  private final LongAdder written;

  /**
   * @param now the time of every row (the equivalent writes all at this millisecond)
   * @param defaultReplication the store's default replication config, which keys, files and
   *     uploads of a bucket without one of its own get, as through the write path
   * @param written counts every row added, for progress
   */
  NamespaceRows(NamespacePlan plan, NamespaceLayout layout, FsoTreeLayout tree, long now,
      ReplicationConfig defaultReplication, LongAdder written) {
    this.plan = plan;
    this.layout = layout;
    this.tree = tree;
    this.now = now;
    this.defaultReplication = defaultReplication;
    this.written = written;
  }

  /** The replication config a key, file or upload of bucket {@code b} gets without asking. */
  private ReplicationConfig replication(BucketInfo b) {
    return ReplicationConfigs.resolve(null, b, defaultReplication);
  }

  private static List<OmAcl> inherited(BucketInfo b) {
    return DefaultAcls.forKey(b.getOwner(), b.getAclsList());
  }

  /** keyTable: the committed keys of every OBS bucket. */
  void keys(TableBulkLoad<String, KeyInfo> keys) {
    for (Bucket b : layout.obsBucketsByName()) {
      BucketInfo row = b.row();
      List<OmAcl> acls = inherited(row);
      String prefix = b.namePrefix();
      for (long i = 0; i < plan.keysPerBucket(); i++) {
        String name = plan.keyName(i);
        long id = NamespaceLayout.keyId(b, i);
        KeyInfo open = ObjectKeys.openRow(row.getVolumeName(), row.getBucketName(), name,
            row.getOwner(), id, id + 1, now, acls, replication(row));
        keys.add(prefix + name, ObjectKeys.committedRow(open, plan.keySize(), Map.of(), now));
        counted();
      }
    }
  }

  /** multipartInfoTable: the uploads in progress of every OBS bucket, each after its parts. */
  void uploads(TableBulkLoad<String, MultipartUploadInfo> uploads) {
    for (Bucket b : layout.obsBucketsByName()) {
      BucketInfo row = b.row();
      for (long u = 0; u < plan.uploadsPerBucket(); u++) {
        String key = plan.uploadKey(u);
        long id = layout.uploadId(b, u);
        MultipartUploadInfo upload = MultipartRows.upload(row.getVolumeName(),
            row.getBucketName(), key, id, row.getOwner(), now, replication(row));
        if (plan.partsPerUpload() > 0) {
          upload = MultipartRows.withPart(upload, id + plan.partsPerUpload());
        }
        uploads.add(OmKeys.multipartKey(row.getVolumeName(), row.getBucketName(), key,
            upload.getUploadId()), upload);
        counted();
      }
    }
  }

  /** multipartPartsTable: the parts of every upload, by upload id (id order), then number. */
  void parts(TableBulkLoad<String, PartInfo> parts) {
    for (Bucket b : layout.obsBuckets()) {
      for (long u = 0; u < plan.uploadsPerBucket(); u++) {
        long id = layout.uploadId(b, u);
        String uploadId = OmKeys.id(id);
        for (int p = 1; p <= plan.partsPerUpload(); p++) {
          parts.add(OmKeys.multipartPartKey(uploadId, p),
              MultipartRows.part(p, plan.partSize(), etag(id + p), id + p, now));
          counted();
        }
      }
    }
  }

  /** The ETag of the part with id {@code partId}: 32 hex digits, as a real one is long. */
  static String etag(long partId) {
    return String.format(Locale.ROOT, "%032x", partId);
  }

  /** directoryTable and fileTable: the tree of every FSO bucket, in one walk each. */
  void tree(TableBulkLoad<String, DirectoryInfo> dirs, TableBulkLoad<String, KeyInfo> files) {
    for (Bucket b : layout.fsoBucketsByIds()) {
      BucketInfo row = b.row();
      List<OmAcl> acls = inherited(row);
      long vid = row.getVolumeId();
      long bid = row.getObjectId();
      tree.walk((preorder, path, fileCount, firstFile, children) -> {
        long parent = preorder == 0 ? bid : NamespaceLayout.directoryId(b, preorder);
        for (FsoTreeLayout.Child c : children) {
          dirs.add(OmKeys.pathKey(vid, bid, parent, c.name()), FsoDirectories.newRow(c.name(),
              NamespaceLayout.directoryId(b, c.preorder()), parent, row.getOwner(), acls, now));
          counted();
        }
        for (long i = 0; i < fileCount; i++) {
          String leaf = FsoTreeLayout.fileName(i);
          long id = layout.fileId(b, firstFile + i);
          KeyInfo open = FsoFiles.openRow(row.getVolumeName(), row.getBucketName(),
              path.isEmpty() ? leaf : path + "/" + leaf, leaf, id, parent, id + 1,
              row.getOwner(), acls, now, replication(row));
          files.add(OmKeys.pathKey(vid, bid, parent, leaf),
              FsoFiles.committedRow(open, leaf, parent, fileSize(), Map.of(), now));
          counted();
        }
      });
    }
  }

  /**
   * Counts a row for progress, and stops the generation (with an exception) once its thread is
   * interrupted: the loader interrupts the others when one fails or it is interrupted itself.
   */
  private void counted() {
    written.increment();
    if (Thread.currentThread().isInterrupted()) {
      throw new IllegalStateException("Bulk load generation interrupted");
    }
  }

  private long fileSize() {
    return plan.fileSize();
  }
}
