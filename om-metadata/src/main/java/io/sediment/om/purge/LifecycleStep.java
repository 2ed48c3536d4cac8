package io.sediment.om.purge;

import java.util.List;

/**
 * One step of a lifecycle scan ({@link LifecycleScans#step}).
 *
 * @param matched the examined keys the rule matched, in table order
 * @param examined how many keys the step examined (at most its budget)
 * @param passComplete whether the step reached the end of the bucket (or prefix): the saved cursor
 *     is cleared and the next step starts a new pass from the beginning
 */
public record LifecycleStep(List<io.sediment.proto.om.KeyInfo> matched, int examined,
    boolean passComplete) {

  public LifecycleStep {
    matched = List.copyOf(matched);
  }
}
