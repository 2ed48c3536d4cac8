package io.sediment.om.openfiles;

import io.sediment.proto.om.KeyInfo;

/**
 * One key or file open for writing.
 *
 * @param path the key name (OBJECT_STORE/LEGACY) or the full path of the file (FSO)
 * @param clientId the session that may commit it
 * @param creationTime when it was opened (epoch millis)
 * @param size the data size recorded so far
 * @param info the whole openKeyTable or openFileTable row
 */
public record OpenFileEntry(String path, long clientId, long creationTime, long size,
    KeyInfo info) {
}
