package dev.clearway.lab.bench;

import dev.clearway.store.Database;
import dev.clearway.store.MysqlDialect;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * What the payment bench reads and writes differently per database: the count of commits, the
 * durability setting, and the bulk statements that fill its tables (the baseline's accounts, the
 * scanner's terminal and due flows). The engine itself runs the same on both, through the store's
 * {@code SqlDialect}.
 */
interface BenchDatabase {

  /** The bench database of {@code db}'s dialect. */
  static BenchDatabase of(Database db) {
    return db.dialect() instanceof MysqlDialect
        ? new MysqlBenchDatabase(db)
        : new PostgresBenchDatabase(db);
  }

  /** Counts the commits of the engine that runs over {@link CommitMeter#dataSource()}. */
  interface CommitMeter {
    /** The DataSource the measured engine uses. */
    DataSource dataSource();

    /** The commits counted so far, once they are all visible. */
    long settled();
  }

  /** The server's setting that decides whether a commit waits for the disk, and its value. */
  record Durability(String setting, String value) {
    /** As the JSON reports it: PostgreSQL's value alone, any other as {@code setting=value}. */
    String reported() {
      return setting.equals("synchronous_commit") ? value : setting + "=" + value;
    }
  }

  CommitMeter commitMeter();

  Durability durability();

  /**
   * Creates the table {@code bench_account (id, balance)} if missing and fills it with ids 1..rows.
   */
  void fillAccounts(Statement st, int rows) throws SQLException;

  /**
   * Empties the flow tables (restarting their ids if {@code restartIds}), then inserts {@code
   * terminalRows} BIZ_SUCCESS flows and {@code dueRows} PAYING flows overdue, and refreshes the
   * planner's statistics. Runs without the statement timeout.
   */
  void loadFlows(Statement st, int terminalRows, int dueRows, boolean restartIds)
      throws SQLException;

  /** Makes every PAYING flow due and unleased. */
  String makeDueSql();
}
