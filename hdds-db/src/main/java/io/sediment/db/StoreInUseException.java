package io.sediment.db;

/**
 * A store was not opened because another process, or this one, has it open (it holds the
 * store's LOCK). Nothing in the store's directory was changed by the refused open.
 */
public class StoreInUseException extends StoreException {
  private static final long serialVersionUID = 1L;

  public StoreInUseException(String message) {
    super(message);
  }
}
