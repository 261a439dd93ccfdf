package dev.clearway.store;

/** A database failure. The message names the operation, never a parameter value. */
public final class StoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreException(String operation, Throwable cause) {
    super("store: " + firstLine(operation), cause);
  }

  private static String firstLine(String s) {
    String trimmed = s.strip();
    int nl = trimmed.indexOf('\n');
    return nl < 0 ? trimmed : trimmed.substring(0, nl) + " ...";
  }
}
