package io.sediment.db;

import java.nio.file.Path;

/**
 * What one write-ahead log file holds, as a scan that checks every record's checksum found it
 * ({@link StoreMaintenance#scanLogs}).
 *
 * @param file the log file
 * @param bytes its size
 * @param records whole logical records (write batches) whose every fragment checks out,
 *     wherever they lie in the file, damage or not
 * @param damageOffset byte offset of the first physical record that fails its checksum or is
 *     malformed before the end of the file; -1 if none
 * @param damage what is wrong there ({@code null} if nothing)
 * @param recordsAfterDamage the readable logical records that start after {@code damageOffset}:
 *     what a recovery that stops at the damage drops besides the damaged record itself
 * @param tornTailBytes bytes of an incomplete last record at the end of the file (0 if none)
 */
public record WalReport(Path file, long bytes, long records, long damageOffset, String damage,
    long recordsAfterDamage, long tornTailBytes) {

  public boolean damaged() {
    return damageOffset >= 0;
  }

  /** One line for an operator. */
  public String describe() {
    if (!damaged()) {
      return file.getFileName() + ": " + records + " records, " + bytes + " bytes, intact"
          + (tornTailBytes > 0 ? " (a torn tail of " + tornTailBytes + " bytes)" : "");
    }
    return file.getFileName() + ": " + damage + " at byte " + damageOffset + " of " + bytes
        + "; " + recordsAfterDamage + " readable records (" + (bytes - damageOffset)
        + " bytes) lie after it";
  }
}
