package io.sediment.om.auth;

import io.sediment.proto.om.AclRight;

/**
 * Decides whether a principal may exercise a right on a resource.
 *
 * <p>Implementations are thread-safe.
 */
public interface AccessControl {

  /** Allows everything: a server that authenticates no one. */
  AccessControl OPEN = (principal, resource, right) -> { };

  /**
   * Returns when {@code principal} holds {@code right} on {@code resource}.
   *
   * @throws io.grpc.StatusRuntimeException with status PERMISSION_DENIED, naming the right and the
   *     resource, when it does not (NOT_FOUND is never used to hide a resource's existence from an
   *     administrator, but a caller without access learns no more than the denial)
   */
  void check(Principal principal, Resource resource, AclRight right);
}
