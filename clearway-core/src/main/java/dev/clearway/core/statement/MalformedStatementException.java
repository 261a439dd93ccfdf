package dev.clearway.core.statement;

/** A statement line that does not follow its format; names the line and why. */
public final class MalformedStatementException extends Exception {
  private final long lineNo;
  private final String reason;

  public MalformedStatementException(long lineNo, String reason) {
    super("line " + lineNo + ": " + reason);
    this.lineNo = lineNo;
    this.reason = reason;
  }

  /** The 1-based physical line number; 0 when the file as a whole is wrong (empty, truncated). */
  public long lineNo() {
    return lineNo;
  }

  public String reason() {
    return reason;
  }
}
