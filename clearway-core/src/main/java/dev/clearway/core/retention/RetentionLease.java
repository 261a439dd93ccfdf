package dev.clearway.core.retention;

import java.time.Instant;

/** One retention job at a time across the nodes: a lease row in the database. */
public interface RetentionLease {

  /** Takes the lease for {@code owner} until {@code until} if it is free or expired. */
  boolean acquire(String owner, Instant until, Instant now);

  /** Releases the lease held by {@code owner} and records when the run ended. */
  void release(String owner, Instant now);
}
