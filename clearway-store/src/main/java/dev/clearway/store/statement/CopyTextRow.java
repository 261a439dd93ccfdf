package dev.clearway.store.statement;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;

/**
 * One row of PostgreSQL's {@code COPY ... FROM STDIN} text format, encoded straight into UTF-8
 * bytes: columns separated by tabs, {@code \N} for null, backslash escapes for a backslash, tab,
 * newline and carriage return. Reused from row to row, so a file of any size costs no garbage per
 * column.
 */
final class CopyTextRow {
  private static final byte[] NULL = {'\\', 'N'};

  private byte[] bytes = new byte[512];
  private int length;
  private boolean first = true;

  /** Starts a new row. */
  CopyTextRow clear() {
    length = 0;
    first = true;
    return this;
  }

  byte[] bytes() {
    return bytes;
  }

  int length() {
    return length;
  }

  /** Ends the row with its newline. */
  void end() {
    put((byte) '\n');
  }

  /** A text column; null is {@code \N}. */
  CopyTextRow text(String value) {
    separate();
    if (value == null) {
      put(NULL);
      return this;
    }
    for (int i = 0; i < value.length(); i++) {
      char ch = value.charAt(i);
      if (ch >= 0x80) {
        escaped(value.substring(i).getBytes(StandardCharsets.UTF_8));
        return this;
      }
      escaped((byte) ch);
    }
    return this;
  }

  /** A null column. */
  CopyTextRow none() {
    separate();
    put(NULL);
    return this;
  }

  CopyTextRow number(long value) {
    separate();
    if (value < 0) {
      if (value == Long.MIN_VALUE) {
        put(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
        return this;
      }
      put((byte) '-');
      value = -value;
    }
    int digits = 1;
    for (long v = value / 10; v > 0; v /= 10) {
      digits++;
    }
    room(digits);
    for (int i = length + digits - 1; i >= length; i--) {
      bytes[i] = (byte) ('0' + value % 10);
      value /= 10;
    }
    length += digits;
    return this;
  }

  /** A {@code timestamptz} column in UTC: {@code yyyy-MM-ddTHH:mm:ss[.nnnnnnnnn]Z}. */
  CopyTextRow instant(Instant at) {
    long seconds = at.getEpochSecond();
    LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(seconds, 86_400));
    if (date.getYear() < 1 || date.getYear() > 9999) {
      separate();
      put(at.atOffset(ZoneOffset.UTC).toString().getBytes(StandardCharsets.US_ASCII));
      return this;
    }
    int secondOfDay = (int) Math.floorMod(seconds, 86_400);
    separate();
    fixed(date.getYear(), 4);
    put((byte) '-');
    fixed(date.getMonthValue(), 2);
    put((byte) '-');
    fixed(date.getDayOfMonth(), 2);
    put((byte) 'T');
    fixed(secondOfDay / 3_600, 2);
    put((byte) ':');
    fixed(secondOfDay / 60 % 60, 2);
    put((byte) ':');
    fixed(secondOfDay % 60, 2);
    if (at.getNano() != 0) {
      put((byte) '.');
      fixed(at.getNano(), 9);
    }
    put((byte) 'Z');
    return this;
  }

  private void fixed(int value, int digits) {
    room(digits);
    for (int i = length + digits - 1; i >= length; i--) {
      bytes[i] = (byte) ('0' + value % 10);
      value /= 10;
    }
    length += digits;
  }

  private void separate() {
    if (!first) {
      put((byte) '\t');
    }
    first = false;
  }

  private void escaped(byte[] utf8) {
    for (byte b : utf8) {
      escaped(b);
    }
  }

  /** UTF-8's bytes of a character above ASCII are all above 0x7f: only ASCII needs escaping. */
  private void escaped(byte b) {
    switch (b) {
      case '\\' -> put(new byte[] {'\\', '\\'});
      case '\t' -> put(new byte[] {'\\', 't'});
      case '\n' -> put(new byte[] {'\\', 'n'});
      case '\r' -> put(new byte[] {'\\', 'r'});
      default -> put(b);
    }
  }

  private void put(byte b) {
    room(1);
    bytes[length++] = b;
  }

  private void put(byte[] b) {
    room(b.length);
    System.arraycopy(b, 0, bytes, length, b.length);
    length += b.length;
  }

  private void room(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
    }
  }
}
