package dev.clearway.store.retention;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.retention.RetentionKind;
import dev.clearway.store.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The purges on the MySQL family, which refuses a DELETE whose {@code IN} subquery reads the same
 * table or has a LIMIT: in one transaction, a locking read ({@code FOR UPDATE SKIP LOCKED}) of the
 * oldest keys past the cutoff through the age index, in that index's order (InnoDB locks every row
 * a locking read examines, so the read stops at the LIMIT), then a DELETE of those keys.
 */
final class MysqlRetentionStatements {

  /** One purge: the table, its key, the age index, and the filter on the age column. */
  private record Purge(String table, List<String> key, String index, String due, String order) {}

  private MysqlRetentionStatements() {}

  /** Runs the purge of {@code kind}; the caller holds the transaction. */
  static int purge(Connection c, RetentionKind kind, Instant cutoff, int limit)
      throws SQLException {
    Purge p =
        switch (kind) {
          // Only completed records (DONE): an in-flight one still guards a running request.
          case IDEMPOTENCY ->
              new Purge(
                  "idempotency_key",
                  List.of("merchant_id", "idem_key"),
                  "idx_idempotency_done",
                  "state = 'DONE' AND updated_at < ?",
                  "updated_at");
          case CALLBACK_INBOX ->
              new Purge(
                  "callback_inbox",
                  List.of("channel", "event_id"),
                  "idx_callback_inbox_received",
                  "received_at < ?",
                  "received_at");
          // Only deliveries marked done: a claim still open belongs to a delivery being processed.
          case WEBHOOK_INBOX ->
              new Purge(
                  "channel_webhook_inbox",
                  List.of("channel_account_id", "event_id"),
                  "idx_webhook_inbox_done",
                  "done_at IS NOT NULL AND done_at < ?",
                  "done_at");
          // Only published events: the relay's pending ones are never touched.
          case PUBLISHED_OUTBOX ->
              new Purge(
                  "outbox_event",
                  List.of("id"),
                  "idx_outbox_pending",
                  "published_at IS NOT NULL AND published_at < ?",
                  "published_at");
          case FLOW_ARCHIVE ->
              throw new IllegalArgumentException(
                  "flows are moved to the archive (MysqlFlowArchiver), not purged");
        };
    List<Object[]> keys = lockOldest(c, p, cutoff, limit);
    if (keys.isEmpty()) {
      return 0;
    }
    String one = "(" + String.join(", ", Collections.nCopies(p.key().size(), "?")) + ")";
    String delete =
        "DELETE FROM %s WHERE (%s) IN (%s)"
            .formatted(
                p.table(),
                String.join(", ", p.key()),
                String.join(", ", Collections.nCopies(keys.size(), one)));
    try (PreparedStatement ps = c.prepareStatement(delete)) {
      int i = 1;
      for (Object[] key : keys) {
        for (Object part : key) {
          ps.setObject(i++, part);
        }
      }
      return ps.executeUpdate();
    }
  }

  private static List<Object[]> lockOldest(Connection c, Purge p, Instant cutoff, int limit)
      throws SQLException {
    String select =
        "SELECT %s FROM %s FORCE INDEX (%s) WHERE %s ORDER BY %s LIMIT ? FOR UPDATE SKIP LOCKED"
            .formatted(String.join(", ", p.key()), p.table(), p.index(), p.due(), p.order());
    List<Object[]> keys = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(select)) {
      ps.setObject(1, ts(cutoff));
      ps.setInt(2, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Object[] key = new Object[p.key().size()];
          for (int k = 0; k < key.length; k++) {
            key[k] = rs.getObject(k + 1);
          }
          keys.add(key);
        }
      }
    }
    return keys;
  }

  /** Runs the purge of {@code kind} in its own transaction. */
  static int purge(Sql sql, RetentionKind kind, Instant cutoff, int limit) {
    return sql.transaction("purge " + kind, c -> purge(c, kind, cutoff, limit));
  }
}
