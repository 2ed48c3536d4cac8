package io.sediment.om.grpc;

import io.grpc.Status;
import io.sediment.om.listing.KeyRowView;
import io.sediment.proto.om.KeyView;

/**
 * The wire's {@link KeyView}s as the store's {@link KeyRowView}s, which cut each row while the
 * listing reads it. Stateless.
 */
final class KeyViews {

  private KeyViews() {
  }

  /**
   * The rows {@code view} (sent as {@code number}) asks for, checked before any work is done for
   * the request.
   *
   * @throws io.grpc.StatusRuntimeException INVALID_ARGUMENT for a view this server does not know
   */
  static KeyRowView rows(KeyView view, int number) {
    return switch (view) {
      case KEY_VIEW_FULL -> KeyRowView.FULL;
      case KEY_VIEW_BASIC -> KeyRowView.BASIC;
      case KEY_VIEW_COLUMNS -> KeyRowView.COLUMNS;
      case UNRECOGNIZED -> throw Status.INVALID_ARGUMENT
          .withDescription("Unknown key view: " + number).asRuntimeException();
    };
  }
}
