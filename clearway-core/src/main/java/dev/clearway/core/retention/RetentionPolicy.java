package dev.clearway.core.retention;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * How long each kind of row stays in the hot tables, and how large one batch is. A batch is one
 * transaction; {@code maxBatchesPerKind} bounds one run so that a large backlog is worked off over
 * several runs instead of one long one.
 */
public record RetentionPolicy(
    Map<RetentionKind, Duration> ages, int batchSize, int maxBatchesPerKind) {

  public static final Duration IDEMPOTENCY_TTL = Duration.ofHours(24);
  public static final Duration INBOX_AGE = Duration.ofDays(30);
  public static final Duration OUTBOX_AGE = Duration.ofDays(7);
  public static final Duration FLOW_ARCHIVE_AGE = Duration.ofDays(90);

  public RetentionPolicy {
    Objects.requireNonNull(ages, "ages");
    for (RetentionKind kind : RetentionKind.values()) {
      Duration age = ages.get(kind);
      if (age == null || age.isNegative() || age.isZero()) {
        throw new IllegalArgumentException("retention age of " + kind + " must be positive");
      }
    }
    if (batchSize < 1 || batchSize > 10_000) {
      throw new IllegalArgumentException("retention batch size must be within 1..10000");
    }
    if (maxBatchesPerKind < 1) {
      throw new IllegalArgumentException("retention max batches per kind must be at least 1");
    }
    ages = Map.copyOf(ages);
  }

  /**
   * 24 h for idempotency records, 30 days for the inboxes, 7 for published events, 90 for flows.
   */
  public static RetentionPolicy defaults() {
    Map<RetentionKind, Duration> ages = new EnumMap<>(RetentionKind.class);
    ages.put(RetentionKind.IDEMPOTENCY, IDEMPOTENCY_TTL);
    ages.put(RetentionKind.CALLBACK_INBOX, INBOX_AGE);
    ages.put(RetentionKind.WEBHOOK_INBOX, INBOX_AGE);
    ages.put(RetentionKind.PUBLISHED_OUTBOX, OUTBOX_AGE);
    ages.put(RetentionKind.FLOW_ARCHIVE, FLOW_ARCHIVE_AGE);
    return new RetentionPolicy(ages, 500, 200);
  }

  /** This policy with one kind's age replaced. */
  public RetentionPolicy withAge(RetentionKind kind, Duration age) {
    Map<RetentionKind, Duration> copy = new EnumMap<>(ages);
    copy.put(kind, age);
    return new RetentionPolicy(copy, batchSize, maxBatchesPerKind);
  }

  public RetentionPolicy withBatches(int size, int maxBatches) {
    return new RetentionPolicy(ages, size, maxBatches);
  }

  public Duration age(RetentionKind kind) {
    return ages.get(kind);
  }

  /** Rows of this kind older than the returned instant are removed from the hot tables. */
  public Instant cutoff(RetentionKind kind, Instant now) {
    return now.minus(age(kind));
  }
}
