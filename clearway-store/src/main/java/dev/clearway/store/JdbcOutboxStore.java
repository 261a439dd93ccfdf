package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.outbox.OutboxEvent;
import dev.clearway.core.outbox.OutboxStore;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** {@link OutboxStore} over JDBC, on PostgreSQL and on the MySQL family. */
public final class JdbcOutboxStore implements OutboxStore {
  private final Sql sql;
  private final SqlDialect dialect;

  /** The store on {@code dataSource}, in the dialect of its URL. */
  public JdbcOutboxStore(DataSource dataSource) {
    this(dataSource, SqlDialects.forDataSource(dataSource));
  }

  public JdbcOutboxStore(DataSource dataSource, SqlDialect dialect) {
    this.sql = new Sql(dataSource);
    this.dialect = dialect;
  }

  @Override
  public List<OutboxEvent> lease(int limit, Instant now, Instant leaseUntil) {
    // Race: two relays lease at once; SKIP LOCKED hands each event to one of them, and the lease
    // keeps it from the other until it expires. idx_outbox_pending (published_at, id) holds the
    // unpublished events in id order, so the page is read from it and stops at the LIMIT.
    SqlDialect.ClaimPage page =
        new SqlDialect.ClaimPage(
            "outbox_event",
            "idx_outbox_pending",
            """
            SELECT id FROM outbox_event
             WHERE published_at IS NULL AND (lease_until IS NULL OR lease_until <= ?)
             ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED
            """,
            (ps, i) -> {
              ps.setObject(i++, ts(now));
              ps.setInt(i++, limit);
              return i;
            },
            "lease_until = ?, attempts = attempts + 1",
            (ps, i) -> {
              ps.setObject(i++, ts(leaseUntil));
              return i;
            },
            "id, event_id, event_type, aggregate_id, payload, created_at");
    List<OutboxEvent> events =
        sql.transaction(
            "lease outbox events",
            c ->
                dialect.claimPage(
                    c,
                    page,
                    rs ->
                        new OutboxEvent(
                            rs.getLong("id"),
                            rs.getString("event_id"),
                            rs.getString("event_type"),
                            rs.getLong("aggregate_id"),
                            rs.getString("payload"),
                            FlowRows.instant(rs, "created_at"))));
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
