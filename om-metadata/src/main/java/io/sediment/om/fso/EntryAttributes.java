package io.sediment.om.fso;

/**
 * What a {@link FileStatus} takes from a stored fileTable ({@code KeyInfo}) or directoryTable
 * ({@code DirectoryInfo}) row, read by {@link EntryAttributesCodec} without parsing the rest.
 *
 * @param size the committed data size of a file; 0 for a directory
 * @param objectId the entry's object id
 * @param parentId its parent directory's object id
 * @param creationTime epoch millis
 * @param modificationTime epoch millis
 * @param owner the owner ({@code ""} when the row has none)
 */
record EntryAttributes(long size, long objectId, long parentId, long creationTime,
    long modificationTime, String owner) {
}
