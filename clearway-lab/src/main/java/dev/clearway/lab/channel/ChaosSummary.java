package dev.clearway.lab.channel;

import dev.clearway.store.Sql;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * The counts of the chaos run read from the database: attempts by status and origin (overall and by
 * channel), results resolved from UNKNOWN, compensations by status, tasks handed to a person.
 */
final class ChaosSummary {

  private final Sql sql;
  private final String prefix;

  ChaosSummary(DataSource dataSource, String prefix) {
    this.sql = new Sql(dataSource);
    this.prefix = prefix;
  }

  /** The counts by name, sorted. */
  Map<String, Long> counts() {
    Map<String, Long> out = new TreeMap<>();
    attempts(out);
    resolvedFromUnknown(out);
    compensations(out);
    manualTasks(out);
    return out;
  }

  private void attempts(Map<String, Long> out) {
    sql.query(
        "SELECT CONCAT(status, '_', origin), count(*) FROM payment_attempt WHERE trade_order_no LIKE ?"
            + " GROUP BY 1",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put("attempts_" + rs.getString(1), rs.getLong(2)));
    sql.query(
        "SELECT CONCAT(c.channel, '_attempts_', a.status, '_', a.origin), count(*)"
            + " FROM payment_attempt a JOIN channel_account c ON c.id = a.channel_account_id"
            + " WHERE a.trade_order_no LIKE ? GROUP BY 1",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put(rs.getString(1), rs.getLong(2)));
  }

  private void resolvedFromUnknown(Map<String, Long> out) {
    sql.query(
        "SELECT c.channel, count(*) FROM payment_attempt_history h"
            + " JOIN payment_attempt a ON a.id = h.attempt_id"
            + " JOIN channel_account c ON c.id = a.channel_account_id"
            + " WHERE a.trade_order_no LIKE ? AND h.from_status = 'UNKNOWN' GROUP BY 1",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put(rs.getString(1) + "_resolvedFromUnknown", rs.getLong(2)));
    sql.query(
        "SELECT count(*) FROM payment_attempt_history h JOIN payment_attempt a ON a.id = h.attempt_id"
            + " WHERE a.trade_order_no LIKE ? AND h.from_status = 'UNKNOWN'",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put("resolvedFromUnknown", rs.getLong(1)));
  }

  private void compensations(Map<String, Long> out) {
    sql.query(
        "SELECT CONCAT(c.channel, '_compensation_', k.status), count(*)"
            + " FROM attempt_compensation k"
            + " JOIN payment_attempt a ON a.id = k.attempt_id"
            + " JOIN channel_account c ON c.id = a.channel_account_id"
            + " WHERE k.trade_order_no LIKE ? GROUP BY 1",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put(rs.getString(1), rs.getLong(2)));
    sql.query(
        "SELECT status, count(*) FROM attempt_compensation WHERE trade_order_no LIKE ? GROUP BY 1",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put("compensation_" + rs.getString(1), rs.getLong(2)));
  }

  private void manualTasks(Map<String, Long> out) {
    sql.query(
        "SELECT count(*) FROM recovery_task t JOIN payment_attempt a ON a.id = t.attempt_id"
            + " WHERE a.trade_order_no LIKE ? AND t.status = 'MANUAL'",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put("manualTasks", rs.getLong(1)));
    sql.query(
        "SELECT c.channel, count(*) FROM recovery_task t JOIN payment_attempt a"
            + " ON a.id = t.attempt_id JOIN channel_account c ON c.id = a.channel_account_id"
            + " WHERE a.trade_order_no LIKE ? AND t.status = 'MANUAL' GROUP BY 1",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put(rs.getString(1) + "_manualTasks", rs.getLong(2)));
  }
}
