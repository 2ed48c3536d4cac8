package io.sediment.om.core;

import io.sediment.proto.om.KeyInfo;

/**
 * An open key: the client id that must be presented to commit it, and the open-key row.
 */
public record OpenKeySession(long clientId, KeyInfo openKey) {
}
