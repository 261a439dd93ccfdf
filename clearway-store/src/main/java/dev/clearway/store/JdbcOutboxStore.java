package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.outbox.OutboxEvent;
import dev.clearway.core.outbox.OutboxStore;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** {@link OutboxStore} on PostgreSQL. */
public final class JdbcOutboxStore implements OutboxStore {
  private final Sql sql;

  public JdbcOutboxStore(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  @Override
  public List<OutboxEvent> lease(int limit, Instant now, Instant leaseUntil) {
    // Race: two relays lease at once; SKIP LOCKED hands each event to one of them, and the lease
    // keeps it from the other until it expires.
    List<OutboxEvent> events =
        sql.query(
            """
            UPDATE outbox_event e SET lease_until = ?, attempts = attempts + 1
              FROM (SELECT id FROM outbox_event
                     WHERE published_at IS NULL AND (lease_until IS NULL OR lease_until <= ?)
                     ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED) due
             WHERE e.id = due.id
            RETURNING e.id, e.event_id, e.event_type, e.aggregate_id, e.payload, e.created_at
            """,
            ps -> {
              ps.setObject(1, ts(leaseUntil));
              ps.setObject(2, ts(now));
              ps.setInt(3, limit);
            },
            rs ->
                new OutboxEvent(
                    rs.getLong(1),
                    rs.getString(2),
                    rs.getString(3),
                    rs.getLong(4),
                    rs.getString(5),
                    FlowRows.instant(rs, "created_at")));
    return events.stream().sorted(Comparator.comparingLong(OutboxEvent::id)).toList();
  }

  @Override
  public boolean markPublished(long id, Instant now) {
    return sql.update(
            "UPDATE outbox_event SET published_at = ?, lease_until = NULL"
                + " WHERE id = ? AND published_at IS NULL",
            ps -> {
              ps.setObject(1, ts(now));
              ps.setLong(2, id);
            })
        == 1;
  }

  @Override
  public long pending() {
    return sql.query(
            "SELECT count(*) FROM outbox_event WHERE published_at IS NULL",
            ps -> {},
            rs -> rs.getLong(1))
        .get(0);
  }

  @Override
  public Optional<Instant> oldestPending() {
    return Optional.ofNullable(
        sql.query(
                "SELECT min(created_at) AS created_at FROM outbox_event WHERE published_at IS NULL",
                ps -> {},
                rs -> FlowRows.instant(rs, "created_at"))
            .get(0));
  }
}
