package dev.clearway.lab.bench;

import dev.clearway.store.Database;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Reads PostgreSQL's own count of committed transactions for the current database
 * (pg_stat_database.xact_commit), not the engine's counters. Statistics reach the view with a
 * delay, so a reading waits until the counter has been stable for a moment.
 */
final class CommitCounter {
  private final Database db;
  private final DataSource dataSource;

  CommitCounter(Database db) {
    this.db = db;
    this.dataSource = db.dataSource();
  }

  /**
   * The settled counter: idle pooled connections are closed first so that their backends flush
   * pending statistics, then the counter is read until it stops moving. Each reading itself commits
   * one read-only transaction.
   */
  long settled() {
    db.closeIdleConnections();
    long last = read();
    for (int i = 0; i < 40; i++) {
      sleep(250);
      long now = read();
      if (now - last <= 2) {
        return now;
      }
      last = now;
    }
    return last;
  }

  private long read() {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      c.setAutoCommit(false);
      st.execute("SELECT pg_stat_clear_snapshot()");
      try (ResultSet rs =
          st.executeQuery(
              "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
        rs.next();
        long v = rs.getLong(1);
        c.commit();
        return v;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("read pg_stat_database", e);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
