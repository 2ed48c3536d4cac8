package io.sediment.om;

import static io.sediment.om.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.OmDBDefinition.OPEN_FILE_TABLE;
import static io.sediment.om.OmDBDefinition.OPEN_KEY_TABLE;

import io.sediment.db.ReadView;
import io.sediment.db.codec.Codec;
import io.sediment.om.listing.Page;
import io.sediment.om.listing.PageRequest;
import io.sediment.om.listing.TableScan;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The open-file listing of one bucket (Ozone's {@code listOpenFiles}): openKeyTable
 * ({@code /volume/bucket/key/<clientId>}) for OBJECT_STORE and LEGACY buckets, openFileTable
 * ({@code /volumeId/bucketId/parentId/name/<clientId>}) for FSO buckets.
 *
 * <p>A page reads the bucket row and the open entries through one {@link ReadView}, with one
 * iterator bounded to the bucket's prefix, positioned once after the token's last key (a key
 * deleted meanwhile resumes at the next live one) and read lazily; one {@code hasNext()} after a
 * full page makes {@code truncated} exact. The total is the bucket's maintained OPEN_KEYS or
 * OPEN_FILES counter, not a count of the prefix per page as in Ozone. An FSO entry's path is its
 * current one ({@link OpenFilePaths}): a rename of an ancestor since the open moves it, as it
 * moves the file the commit will create. Thread-safe.
 */
final class OpenFiles {

  private static final Codec<KeyInfo> KEY_INFO = KEY_TABLE.valueCodec();

  private final OmContext ctx;

  OpenFiles(OmContext ctx) {
    this.ctx = ctx;
  }

  /** See {@link OmMetadataStore#listOpenFiles}. */
  OpenFilesPage list(String volume, String bucket, int maxKeys, String token) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkResourceName("Bucket", bucket);
    int max = ctx.checkPageSize("maxKeys", maxKeys);
    try (ReadView view = ctx.store().openReadView()) {
      BucketInfo info = ctx.requireBucket(view, volume, bucket);
      boolean fso = info.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED;
      String base = fso ? OmKeys.fsoBucketPrefix(info.getVolumeId(), info.getObjectId())
          : OmKeys.bucketPrefix(volume, bucket);
      Page<TableScan.Entry> page = ctx.pager().page(
          PageRequest.of(ListKind.LIST_OPEN_FILES, volume, bucket, info.getObjectId(), null),
          token, null, max, TableScan.source(
              view.getTable((fso ? OPEN_FILE_TABLE : OPEN_KEY_TABLE).name()), base, null, null,
              TableScan.ENTRIES));
      List<OpenFileEntry> entries = new ArrayList<>(page.items().size());
      OpenFilePaths fsoPaths = fso ? new OpenFilePaths(view, OmInsight.DEFAULT_WALK_BUDGET) : null;
      for (TableScan.Entry e : page.items()) {
        KeyInfo k = KEY_INFO.fromPersistedFormat(e.value());
        String path = fso ? fsoPaths.current(base + e.name(), k) : k.getKeyName();
        entries.add(new OpenFileEntry(path, OmKeys.suffixId(e.name()), k.getCreationTime(),
            k.getDataSize(), k));
      }
      long total = ctx.bucketCountersOf(info.getObjectId())
          .get(fso ? OmCounter.OPEN_FILES : OmCounter.OPEN_KEYS);
      return new OpenFilesPage(entries, page.truncated(), page.nextToken(), total);
    }
  }
}
