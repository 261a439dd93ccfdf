package dev.clearway.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.MessageProperties;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * One wake-up message: which row ({@code kind} names the table's engine, the body its id), when it
 * is due, and how many times consuming it failed. Persistent.
 */
record Wakeup(String kind, long id, Instant due, int failures) {
  static final String KIND = "x-clearway-kind";
  static final String DUE = "x-clearway-due";
  static final String FAILURES = "x-clearway-failures";

  static Wakeup first(String kind, long id, Instant due) {
    return new Wakeup(kind, id, due, 0);
  }

  /** The same wake-up after one more failure, due again at {@code retryAt}. */
  Wakeup failedOnce(Instant retryAt) {
    return new Wakeup(kind, id, retryAt, failures + 1);
  }

  byte[] body() {
    return Long.toString(id).getBytes(StandardCharsets.US_ASCII);
  }

  AMQP.BasicProperties properties() {
    Map<String, Object> headers = new HashMap<>();
    headers.put(KIND, kind);
    headers.put(DUE, due.toEpochMilli());
    headers.put(FAILURES, failures);
    return MessageProperties.PERSISTENT_BASIC.builder().headers(headers).build();
  }

  /** Reads a message; a malformed one throws {@link IllegalArgumentException}. */
  static Wakeup read(AMQP.BasicProperties props, byte[] body) {
    Map<String, Object> headers = props.getHeaders();
    if (headers == null || headers.get(KIND) == null || headers.get(DUE) == null) {
      throw new IllegalArgumentException("wake-up without kind or due time");
    }
    long id = Long.parseLong(new String(body, StandardCharsets.US_ASCII));
    Object failures = headers.get(FAILURES);
    return new Wakeup(
        headers.get(KIND).toString(),
        id,
        Instant.ofEpochMilli(((Number) headers.get(DUE)).longValue()),
        failures == null ? 0 : ((Number) failures).intValue());
  }
}
