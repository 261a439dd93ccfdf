package dev.clearway.lab.bench;

import dev.clearway.store.Database;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The MySQL family (MariaDB 10.11, MySQL 8). The server counts commits only for the whole server
 * ({@code SHOW GLOBAL STATUS}: {@code Com_commit} misses every autocommit statement, {@code
 * Handler_commit} counts per storage engine, and both count every other client of the server), so
 * the commits are counted at the client: every {@code commit()} of a connection out of autocommit
 * and every statement run in autocommit, through the DataSource the engine uses. Rows come from a
 * cross join of digits (MySQL 8 stops recursive CTEs at 1,000 levels by default).
 */
final class MysqlBenchDatabase implements BenchDatabase {
  private static final String DIGITS =
      "(SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4"
          + " UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8"
          + " UNION ALL SELECT 9)";
  private static final String FLOW_TABLES =
      "pay_flow_history, pay_flow_state, pay_flow_fact, outbox_event";

  private final Database db;

  MysqlBenchDatabase(Database db) {
    this.db = db;
  }

  @Override
  public CommitMeter commitMeter() {
    CommitCountingDataSource counting = new CommitCountingDataSource(db.dataSource());
    return new CommitMeter() {
      @Override
      public DataSource dataSource() {
        return counting.dataSource();
      }

      @Override
      public long settled() {
        return counting.commits();
      }
    };
  }

  @Override
  public Durability durability() {
    try (Connection c = db.dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT @@innodb_flush_log_at_trx_commit")) {
      rs.next();
      return new Durability("innodb_flush_log_at_trx_commit", rs.getString(1));
    } catch (SQLException e) {
      throw new IllegalStateException("read innodb_flush_log_at_trx_commit", e);
    }
  }

  @Override
  public void fillAccounts(Statement st, int rows) throws SQLException {
    st.execute(
        "CREATE TABLE IF NOT EXISTS bench_account (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
    st.execute("TRUNCATE TABLE bench_account");
    st.execute("INSERT INTO bench_account (id, balance) SELECT g, 0 FROM " + numbers(rows));
    st.execute("ANALYZE TABLE bench_account");
  }

  @Override
  public void loadFlows(Statement st, int terminalRows, int dueRows, boolean restartIds)
      throws SQLException {
    if (!restartIds) {
      // TRUNCATE restarts AUTO_INCREMENT, and the flow tables' triggers refuse a DELETE.
      throw new UnsupportedOperationException("flow ids that continue after a load");
    }
    // TRUNCATE one table at a time, the foreign keys off meanwhile (MySQL refuses to truncate a
    // referenced table); it restarts AUTO_INCREMENT and fires no DELETE trigger.
    st.execute("SET FOREIGN_KEY_CHECKS = 0");
    try {
      for (String table : FLOW_TABLES.split(", ")) {
        st.execute("TRUNCATE TABLE " + table);
      }
    } finally {
      st.execute("SET FOREIGN_KEY_CHECKS = 1");
    }
    // Terminal rows, as years of finished payments leave them.
    st.execute(
        facts(
            "g % 100000, 'bench', CONCAT('done:', g), 1, CONCAT('t_done_', g),"
                + " CONCAT('r_t_done_', g), 100, 'CNY', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6)",
            terminalRows));
    st.execute(
        states("'BIZ_SUCCESS', 3, UTC_TIMESTAMP(6) - INTERVAL 1 DAY, UTC_TIMESTAMP(6)", "done:"));
    // The due work: flows left PAYING by lost wake-ups, after the terminal ones.
    st.execute(
        facts(
            "g, 'bench', CONCAT('due:', g), 1, CONCAT('t_due_', g), CONCAT('r_t_due_', g), 100,"
                + " 'CNY', UTC_TIMESTAMP(6) + INTERVAL 1 DAY, UTC_TIMESTAMP(6)",
            dueRows));
    st.execute(
        states("'PAYING', 1, UTC_TIMESTAMP(6) - INTERVAL 1 MINUTE, UTC_TIMESTAMP(6)", "due:"));
    st.execute("ANALYZE TABLE pay_flow_fact, pay_flow_state");
  }

  /** Inserts {@code rows} facts with the given column expressions of g. */
  private static String facts(String columns, int rows) {
    return "INSERT INTO pay_flow_fact (user_id, scene, biz_key, attempt_no, trade_order_no,"
        + " refund_order_no, amount, currency, biz_deadline_time, created_at) SELECT "
        + columns
        + " FROM "
        + numbers(rows);
  }

  /** The state of every fact whose goal key starts with {@code prefix}. */
  private static String states(String columns, String prefix) {
    return "INSERT INTO pay_flow_state (id, status, version, next_retry_time, updated_at)"
        + " SELECT id, "
        + columns
        + " FROM pay_flow_fact WHERE scene = 'bench' AND biz_key LIKE '"
        + prefix
        + "%'";
  }

  @Override
  public String makeDueSql() {
    return "UPDATE pay_flow_state SET lease_owner = NULL,"
        + " next_retry_time = UTC_TIMESTAMP(6) - INTERVAL 1 MINUTE WHERE status = 'PAYING'";
  }

  /** A derived table {@code n} of one column {@code g} from 1 to {@code rows}. */
  static String numbers(int rows) {
    StringBuilder value = new StringBuilder("1");
    StringBuilder from = new StringBuilder();
    long scale = 1;
    for (int k = 0; k == 0 || scale < rows; k++) {
      value.append(" + ").append(scale).append(" * d").append(k).append(".d");
      from.append(k == 0 ? "" : " CROSS JOIN ").append(DIGITS).append(" d").append(k);
      scale *= 10;
    }
    return "(SELECT g FROM (SELECT "
        + value
        + " AS g FROM "
        + from
        + ") x WHERE g <= "
        + rows
        + ") n";
  }
}
