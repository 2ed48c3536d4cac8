package io.sediment.om.purge;

import static io.sediment.om.core.OmDBDefinition.FILE_TABLE;
import static io.sediment.om.core.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.core.OmDBDefinition.META_TABLE;

import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.codec.Codec;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.listing.Cursor;
import io.sediment.om.listing.Page;
import io.sediment.om.listing.Pager;
import io.sediment.om.listing.TableScan;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Resumable lifecycle scans: a named scan walks the committed keys of one bucket (keyTable for
 * OBJECT_STORE and LEGACY, fileTable for FSO) in bounded steps and reports the keys a rule
 * matches, keeping its position in metaTable ({@code lifecycle/<bucketId>/<name>}) so the next
 * step, in this process or after a restart, continues where the last one stopped. Deleting the
 * bucket removes its cursors ({@link LifecycleCursors#forgetBucket}).
 *
 * <p>A step reads one {@link ReadView} with one iterator bounded to the bucket (and prefix),
 * positioned once at the saved cursor (a key deleted meanwhile resumes at the next live one;
 * never a second positioning from the head through the tombstones a purge left), and examines at
 * most {@code maxExamined} keys. When a step reaches the end, the pass is complete: the cursor is
 * cleared and the next step starts a new pass. The cursor is bound to the bucket's object id, so
 * a re-created bucket starts afresh.
 *
 * <p>A scan only reads and reports; acting on the matches (deleting expired keys) is the caller's
 * write. Thread-safe; two callers stepping the same named scan at once may examine a range twice.
 */
public final class LifecycleScans {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Codec<KeyInfo> KEY_INFO = KEY_TABLE.valueCodec();

  private final OmContext ctx;

  public LifecycleScans(OmContext ctx) {
    this.ctx = ctx;
  }

  /**
   * One step of the named lifecycle scan of a bucket (see {@link LifecycleScans}): examines at
   * most {@code maxExamined} committed keys after the scan's persisted cursor (under
   * {@code prefix}; OBS/LEGACY only, an FSO bucket is scanned whole) and returns those
   * {@code rule} matches; the cursor advances in metaTable, and is cleared when the pass is
   * complete.
   *
   * @throws OmException INVALID_ARGUMENT for a bad scan name, names or budget (1 to the page cap),
   *     or a prefix on an FSO bucket; NOT_FOUND if the volume or bucket is absent
   */
  public LifecycleStep step(String scanName, String volume, String bucket, String prefix,
      Predicate<KeyInfo> rule, int maxExamined) {
    if (scanName == null || !NAME.matcher(scanName).matches()) {
      throw OmException.invalid("Scan name must be 1 to 64 of [A-Za-z0-9_.-]: '" + scanName + "'");
    }
    OmValidation.checkBucketArgs(volume, bucket);
    OmValidation.checkOptionalText("Prefix", prefix);
    Objects.requireNonNull(rule, "rule");
    int max = ctx.checkBudget("maxExamined", maxExamined);
    Page<KeyInfo> page;
    long bucketId;
    String metaKey;
    Cursor cursor;
    try (ReadView view = ctx.store().openReadView()) {
      BucketInfo info = ctx.requireBucket(view, volume, bucket);
      boolean fso = info.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED;
      if (fso && prefix != null && !prefix.isEmpty()) {
        throw OmException.invalid("A lifecycle scan of an FSO bucket covers the whole bucket "
            + "(its files are keyed by parent id, not path): no prefix");
      }
      bucketId = info.getObjectId();
      metaKey = LifecycleCursors.prefix(bucketId) + scanName;
      cursor = Cursor.startAfter(
          LifecycleCursors.lastKey(view.getTable(META_TABLE).get(metaKey), OmContext.nz(prefix)));
      String base = fso ? OmKeys.fsoBucketPrefix(info.getVolumeId(), info.getObjectId())
          : OmKeys.bucketPrefix(volume, bucket);
      page = Pager.read(TableScan.source(view.getTable((fso ? FILE_TABLE : KEY_TABLE).name()),
          base, prefix, null, row -> KEY_INFO.fromPersistedFormat(row.value())), cursor, max);
    }
    List<KeyInfo> matched = new ArrayList<>();
    for (KeyInfo k : page.items()) {
      if (rule.test(k)) {
        matched.add(k);
      }
    }
    String next = page.nextKey();
    if (cursor == null && next == null) {
      // A whole pass in one step from the start: there is no cursor to save or clear.
      return new LifecycleStep(matched, page.items().size(), true);
    }
    ctx.write(txn -> {
      BucketInfo now = ctx.table(OmDBDefinition.BUCKET_TABLE)
          .get(OmKeys.bucketKey(volume, bucket));
      if (now == null || now.getObjectId() != bucketId) {
        // The bucket was deleted (or re-created) since the step read it: no cursor to keep.
        return null;
      }
      Table<String, byte[]> meta = ctx.table(META_TABLE);
      if (next == null) {
        meta.deleteWithBatch(txn.batch(), metaKey);
      } else {
        meta.putWithBatch(txn.batch(), metaKey,
            LifecycleCursors.value(OmContext.nz(prefix), next));
      }
      return null;
    });
    return new LifecycleStep(matched, page.items().size(), next == null);
  }
}
