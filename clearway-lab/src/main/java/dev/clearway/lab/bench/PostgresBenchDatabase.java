package dev.clearway.lab.bench;

import dev.clearway.store.Database;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * PostgreSQL: commits are the server's own count for the database (pg_stat_database.xact_commit),
 * rows come from {@code generate_series} and data-modifying CTEs.
 */
final class PostgresBenchDatabase implements BenchDatabase {
  private final Database db;

  PostgresBenchDatabase(Database db) {
    this.db = db;
  }

  @Override
  public CommitMeter commitMeter() {
    CommitCounter counter = new CommitCounter(db);
    return new CommitMeter() {
      @Override
      public DataSource dataSource() {
        return db.dataSource();
      }

      @Override
      public long settled() {
        return counter.settled();
      }
    };
  }

  @Override
  public Durability durability() {
    return new Durability("synchronous_commit", db.synchronousCommit());
  }

  @Override
  public void fillAccounts(Statement st, int rows) throws SQLException {
    st.execute(
        "CREATE TABLE IF NOT EXISTS bench_account (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
    st.execute("TRUNCATE bench_account");
    st.execute("INSERT INTO bench_account SELECT g, 0 FROM generate_series(1, " + rows + ") g");
    st.execute("VACUUM ANALYZE bench_account");
  }

  @Override
  public void loadFlows(Statement st, int terminalRows, int dueRows, boolean restartIds)
      throws SQLException {
    st.execute("SET statement_timeout = 0");
    try {
      st.execute(
          "TRUNCATE pay_flow_history, pay_flow_state, pay_flow_fact, outbox_event"
              + (restartIds ? " RESTART IDENTITY" : "")
              + " CASCADE");
      // Terminal rows, as years of finished payments leave them.
      st.execute(
          flows(
              "g % 100000, 'bench', 'done:' || g, 1, 't_done_' || g, 'r_t_done_' || g, 100, 'CNY',"
                  + " now(), now()",
              "'BIZ_SUCCESS', 3, now() - interval '1 day', now()", terminalRows));
      // The due work: flows left PAYING by lost wake-ups, spread through the id range.
      st.execute(
          flows(
              "g, 'bench', 'due:' || g, 1, 't_due_' || g, 'r_t_due_' || g, 100, 'CNY',"
                  + " now() + interval '1 day', now()",
              "'PAYING', 1, now() - interval '1 minute', now()",
              dueRows));
      st.execute("VACUUM ANALYZE pay_flow_fact, pay_flow_state");
    } finally {
      st.execute("RESET statement_timeout");
    }
  }

  /** Inserts {@code rows} flows (facts and state) with the given column expressions of g. */
  private static String flows(String facts, String state, int rows) {
    return "WITH f AS (INSERT INTO pay_flow_fact (user_id, scene, biz_key, attempt_no,"
        + " trade_order_no, refund_order_no, amount, currency, biz_deadline_time, created_at)"
        + " SELECT "
        + facts
        + " FROM generate_series(1, "
        + rows
        + ") g RETURNING id)"
        + " INSERT INTO pay_flow_state (id, status, version, next_retry_time, updated_at)"
        + " SELECT id, "
        + state
        + " FROM f";
  }

  @Override
  public String makeDueSql() {
    return "UPDATE pay_flow_state SET lease_owner = NULL,"
        + " next_retry_time = now() - interval '1 minute' WHERE status = 'PAYING'";
  }
}
