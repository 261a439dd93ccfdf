package dev.clearway.lab.bench;

import dev.clearway.store.Database;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code clearway bench archive}: the scanner round and payments per second with an empty archive
 * and with a large one, side by side in one process on one database. Both legs have the same hot
 * table (terminal rows plus 1,000 due flows) and drive the same payments; only the archive differs.
 * The archive is filled by one generate_series INSERT per table (one history row per archived
 * flow), and the flow sequence is moved past it so that new ids follow the archived ones.
 */
public final class ArchiveBench {
  /**
   * @param archivedRows flows in the archive of the second leg
   */
  public record Options(
      long archivedRows, int hotRows, int payments, int concurrency, String jdbcUrl, boolean json) {
    public Options {
      if (archivedRows < 1 || hotRows < 100 || payments < 100) {
        throw new IllegalArgumentException(
            "--archived-rows >= 1, --hot-rows >= 100 and --payments >= 100");
      }
    }
  }

  record Leg(long archived, double scanMillis, double paymentsPerSec, long p99Micros) {}

  private ArchiveBench() {}

  public static int run(Options o, PrintStream out, PrintStream err) {
    try (Database db =
        o.jdbcUrl() == null
            ? Database.embedded(o.concurrency() + 4)
            : Database.connect(o.jdbcUrl(), o.concurrency() + 4)) {
      String synchronousCommit = db.synchronousCommit();
      Leg empty = leg(db, 0, o, err);
      Leg full = leg(db, o.archivedRows(), o, err);
      double scanRatio = full.scanMillis() / empty.scanMillis();
      double payRatio = full.paymentsPerSec() / empty.paymentsPerSec();
      print(out, empty);
      print(out, full);
      out.printf(
          Locale.ROOT,
          "ratio (archive/empty)  scanner round %.2f   payments/s %.2f%n",
          scanRatio,
          payRatio);
      out.println("synchronous_commit     " + synchronousCommit);
      if (o.json()) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("archivedRows", o.archivedRows());
        json.put("hotRows", o.hotRows());
        json.put("payments", o.payments());
        json.put("emptyScannerMs", BenchJson.fixed(empty.scanMillis(), 3));
        json.put("archiveScannerMs", BenchJson.fixed(full.scanMillis(), 3));
        json.put("scannerRatio", BenchJson.fixed(scanRatio, 3));
        json.put("emptyPaymentsPerSec", BenchJson.fixed(empty.paymentsPerSec(), 2));
        json.put("archivePaymentsPerSec", BenchJson.fixed(full.paymentsPerSec(), 2));
        json.put("paymentsRatio", BenchJson.fixed(payRatio, 3));
        json.put("synchronousCommit", synchronousCommit);
        out.println(BenchJson.line(json));
      }
      return 0;
    }
  }

  private static void print(PrintStream out, Leg leg) {
    out.printf(
        Locale.ROOT,
        "archive %,13d rows  scanner round %8.2f ms  payments/s %8.1f  p99 %.2f ms%n",
        leg.archived(),
        leg.scanMillis(),
        leg.paymentsPerSec(),
        leg.p99Micros() / 1e3);
  }

  private static Leg leg(Database db, long archived, Options o, PrintStream err) {
    err.printf("bench archive: filling the archive with %,d flows%n", archived);
    ScannerBench scanner = new ScannerBench(db, false);
    fillArchive(db, scanner, archived, secondaryKeys(db));
    err.printf(
        "bench archive: scanner round, %,d due among %,d terminal rows%n",
        ScannerBench.DUE, o.hotRows());
    ScannerBench.Result s = scanner.run(o.hotRows());
    err.printf("bench archive: %,d payments at concurrency %d%n", o.payments(), o.concurrency());
    PaymentBench.Result p = new PaymentBench(db, o.concurrency()).run(o.payments());
    if (p.converged() != p.payments()) {
      throw new IllegalStateException(p.converged() + " of " + p.payments() + " converged");
    }
    return new Leg(archived, s.medianMillis(), p.paymentsPerSec(), p.p99Micros());
  }

  /**
   * The archive as years of archiving leave it; ids 1..n, then the hot table's ids after them. Like
   * any bulk load, the fill drops the flow archive's secondary indexes and unique keys and builds
   * them again afterwards from their own definitions ({@code keys}: the drops, then the builds):
   * one sort per index instead of ten million insertions at random places. All of it is one
   * transaction: a failed fill leaves the indexes as they were.
   */
  private static void fillArchive(
      Database db, ScannerBench scanner, long n, List<List<String>> keys) {
    List<String> statements = new ArrayList<>();
    statements.add("SET LOCAL statement_timeout = 0");
    statements.add("SET LOCAL maintenance_work_mem = '256MB'");
    statements.add("TRUNCATE pay_flow_history_archive, pay_flow_archive, idempotency_key");
    statements.addAll(keys.get(0));
    statements.addAll(fill(n));
    statements.addAll(keys.get(1));
    try (Connection c = db.dataSource().getConnection();
        Statement st = c.createStatement()) {
      c.setNetworkTimeout(Runnable::run, 0);
      c.setAutoCommit(false);
      try {
        for (String sql : statements) {
          st.execute(sql);
        }
        c.commit();
      } finally {
        c.rollback();
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("fill the archive", e);
    }
    scanner.exec(after(n).toArray(String[]::new));
  }

  /** The DROP and the CREATE statements of pay_flow_archive's indexes other than its key. */
  private static List<List<String>> secondaryKeys(Database db) {
    List<String> drops = new ArrayList<>();
    List<String> builds = new ArrayList<>();
    try (Connection c = db.dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT c.conname, pg_get_constraintdef(c.oid),"
                    + " i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)"
                    + " FROM pg_index i LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid"
                    + " AND c.conrelid = i.indrelid"
                    + " WHERE i.indrelid = 'pay_flow_archive'::regclass AND NOT i.indisprimary")) {
      while (rs.next()) {
        String constraint = rs.getString(1);
        if (constraint == null) {
          drops.add("DROP INDEX " + rs.getString(3));
          builds.add(rs.getString(4));
        } else {
          drops.add("ALTER TABLE pay_flow_archive DROP CONSTRAINT " + constraint);
          builds.add(
              "ALTER TABLE pay_flow_archive ADD CONSTRAINT " + constraint + " " + rs.getString(2));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("read the archive's indexes", e);
    }
    return List.of(drops, builds);
  }

  private static List<String> fill(long n) {
    return List.of(
        "INSERT INTO pay_flow_archive (id, merchant_id, user_id, scene, biz_key, attempt_no,"
            + " channel, trade_order_no, refund_order_no, status, version, amount, currency,"
            + " biz_deadline_time, next_retry_time, retry_count, review_state, created_at,"
            + " updated_at)"
            + " SELECT g, 'default', g % 100000, 'bench', 'arch:' || g, 1, 'wallet',"
            + " 't_arch_' || g, 'r_t_arch_' || g, 'BIZ_SUCCESS', 3, 100, 'CNY',"
            + " now() - interval '200 days', now() - interval '200 days', 0, 'NONE',"
            + " now() - interval '200 days', now() - interval '200 days'"
            + " FROM generate_series(1, "
            + n
            + ") g",
        "INSERT INTO pay_flow_history_archive (id, flow_id, biz_key, attempt_no, trade_order_no,"
            + " refund_order_no, from_status, to_status, version, trigger_source, created_at)"
            + " SELECT g, g, 'arch:' || g, 1, 't_arch_' || g, 'r_t_arch_' || g, 'PAYED',"
            + " 'BIZ_SUCCESS', 3, 'SYNC', now() - interval '200 days'"
            + " FROM generate_series(1, "
            + n
            + ") g");
  }

  private static List<String> after(long n) {
    return List.of(
        "SELECT setval('pay_flow_id_seq', GREATEST((SELECT max(id) FROM pay_flow), "
            + Math.max(1, n)
            + "))",
        "SELECT setval('pay_flow_history_id_seq', GREATEST((SELECT max(id) FROM pay_flow_history), "
            + Math.max(1, n)
            + "))",
        "VACUUM ANALYZE pay_flow_archive",
        "VACUUM ANALYZE pay_flow_history_archive",
        // The fill's dirty pages are written now, not during the measurement.
        "CHECKPOINT");
  }
}
