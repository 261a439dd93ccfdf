package dev.clearway.service.retention;

import dev.clearway.core.retention.RetentionKind;
import dev.clearway.core.retention.RetentionPolicy;
import java.time.Duration;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.Environment;

/**
 * {@code clearway.retention.*}: {@code enabled} (true), {@code interval} between runs (10m), {@code
 * lease} of one run (30m), {@code batch-size} (500), {@code max-batches} per kind and run (200),
 * and the ages: {@code idempotency-ttl} (24h after completion), {@code callback-inbox-age} (30d),
 * {@code webhook-inbox-age} (30d), {@code published-outbox-age} (7d), {@code flow-archive-age} (90d
 * after a flow ended).
 */
record RetentionSettings(
    boolean enabled, Duration interval, Duration lease, RetentionPolicy policy) {
  static final String PREFIX = "clearway.retention.";

  static RetentionSettings read(Environment env) {
    RetentionPolicy defaults = RetentionPolicy.defaults();
    RetentionPolicy policy =
        defaults
            .withAge(
                RetentionKind.IDEMPOTENCY,
                duration(env, "idempotency-ttl", defaults, RetentionKind.IDEMPOTENCY))
            .withAge(
                RetentionKind.CALLBACK_INBOX,
                duration(env, "callback-inbox-age", defaults, RetentionKind.CALLBACK_INBOX))
            .withAge(
                RetentionKind.WEBHOOK_INBOX,
                duration(env, "webhook-inbox-age", defaults, RetentionKind.WEBHOOK_INBOX))
            .withAge(
                RetentionKind.PUBLISHED_OUTBOX,
                duration(env, "published-outbox-age", defaults, RetentionKind.PUBLISHED_OUTBOX))
            .withAge(
                RetentionKind.FLOW_ARCHIVE,
                duration(env, "flow-archive-age", defaults, RetentionKind.FLOW_ARCHIVE))
            .withBatches(
                env.getProperty(PREFIX + "batch-size", Integer.class, defaults.batchSize()),
                env.getProperty(
                    PREFIX + "max-batches", Integer.class, defaults.maxBatchesPerKind()));
    return new RetentionSettings(
        env.getProperty(PREFIX + "enabled", Boolean.class, true),
        parse(env, "interval", "10m"),
        parse(env, "lease", "30m"),
        policy);
  }

  private static Duration duration(
      Environment env, String name, RetentionPolicy defaults, RetentionKind kind) {
    return parse(env, name, defaults.age(kind).toMinutes() + "m");
  }

  private static Duration parse(Environment env, String name, String fallback) {
    String value = env.getProperty(PREFIX + name, fallback);
    try {
      return DurationStyle.detectAndParse(value);
    } catch (RuntimeException e) {
      throw new IllegalStateException(PREFIX + name + " is not a duration: " + value, e);
    }
  }
}
