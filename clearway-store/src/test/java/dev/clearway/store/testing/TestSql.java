package dev.clearway.store.testing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The test statements whose syntax differs between PostgreSQL and the MySQL family, written for the
 * database under test ({@link TestDatabase}). Everything else in a test's SQL is written once, in
 * the syntax both share ({@code CONCAT}, {@code now()}, {@code greatest}, {@code repeat}).
 */
public final class TestSql {
  /** The columns of pay_flow kept in pay_flow_fact; the others are the state's. */
  private static final Set<String> FACT_COLUMNS =
      Set.of(
          "merchant_id",
          "user_id",
          "scene",
          "biz_key",
          "attempt_no",
          "channel",
          "trade_order_no",
          "refund_order_no",
          "amount",
          "currency",
          "biz_deadline_time",
          "created_at");

  /** The facts that name an attempt (its unique key), to find the id the facts were given. */
  private static final String ATTEMPT_KEY =
      "f.merchant_id = x.merchant_id AND f.user_id = x.user_id AND f.scene = x.scene"
          + " AND f.biz_key = x.biz_key AND f.attempt_no = x.attempt_no";

  private static final Pattern INTERVAL_LITERAL =
      Pattern.compile("interval '(\\d+) (second|minute|hour|day)s?'", Pattern.CASE_INSENSITIVE);

  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

  private TestSql() {}

  private static boolean mysql() {
    return TestDatabase.get().isMysqlFamily();
  }

  /**
   * A constant interval such as {@code "20 minutes"}: {@code interval '20 minutes'} on PostgreSQL,
   * {@code INTERVAL 20 MINUTE} on the MySQL family.
   */
  public static String interval(String amountAndUnit) {
    String[] parts = amountAndUnit.strip().split("\\s+");
    return interval(parts[0], parts[1]);
  }

  /**
   * An interval of {@code amount} (an SQL expression) units (second, minute, hour, day): {@code
   * (amount) * interval '1 unit'} on PostgreSQL, {@code INTERVAL (amount) UNIT} on the MySQL
   * family.
   */
  public static String interval(String amount, String unit) {
    String single = unit.toLowerCase(Locale.ROOT).replaceAll("s$", "");
    if (mysql()) {
      return "INTERVAL (" + amount + ") " + single.toUpperCase(Locale.ROOT);
    }
    return "((" + amount + ") * interval '1 " + single + "')";
  }

  /**
   * {@code sql} with PostgreSQL's interval literals ({@code interval '20 minutes'}) written for the
   * database under test: unchanged on PostgreSQL, {@code INTERVAL 20 MINUTE} on the MySQL family.
   */
  public static String withIntervals(String sql) {
    if (!mysql()) {
      return sql;
    }
    Matcher m = INTERVAL_LITERAL.matcher(sql);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(interval(m.group(1), m.group(2))));
    }
    return m.appendTail(out).toString();
  }

  /** A literal of the instant {@code at}, for a time column of either database (UTC). */
  public static String timestamp(Instant at) {
    String utc = MICROS.format(at.atOffset(ZoneOffset.UTC));
    return mysql() ? "TIMESTAMP '" + utc + "'" : "TIMESTAMPTZ '" + utc + "+00'";
  }

  /** The current time to the second. */
  public static String nowToTheSecond() {
    return mysql() ? "NOW()" : "date_trunc('second', now())";
  }

  /**
   * A row source of the integers {@code from..to} in column {@code alias}, named {@code alias}:
   * PostgreSQL's {@code generate_series}, MariaDB's sequence engine.
   */
  public static String series(int from, int to, String alias) {
    if (mysql()) {
      return "(SELECT seq AS " + alias + " FROM seq_" + from + "_to_" + to + ") " + alias;
    }
    return "generate_series(" + from + ", " + to + ") " + alias;
  }

  /**
   * {@code string_agg(expr, 'separator' ORDER BY orderBy)}: the values of {@code expr} joined by
   * {@code separator} in that order ({@code GROUP_CONCAT} on the MySQL family).
   */
  public static String stringAgg(String expr, String separator, String orderBy) {
    String sep = "'" + separator.replace("'", "''") + "'";
    if (mysql()) {
      return "GROUP_CONCAT(" + expr + " ORDER BY " + orderBy + " SEPARATOR " + sep + ")";
    }
    return "string_agg(" + expr + ", " + sep + " ORDER BY " + orderBy + ")";
  }

  /**
   * The first column of the first row of {@code query} as text (null without a row), with {@code
   * ||} concatenating on both databases: the MySQL family runs it with {@code PIPES_AS_CONCAT} in
   * the session's sql_mode, and puts the connection's mode back before it returns to the pool.
   */
  public static String text(Connection c, String query) throws SQLException {
    try (Statement st = c.createStatement()) {
      if (!mysql()) {
        return first(st, query);
      }
      String mode = first(st, "SELECT @@SESSION.sql_mode");
      st.execute("SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',PIPES_AS_CONCAT')");
      try {
        return first(st, query);
      } finally {
        try (var ps = c.prepareStatement("SET SESSION sql_mode = ?")) {
          ps.setString(1, mode);
          ps.execute();
        }
      }
    }
  }

  private static String first(Statement st, String query) throws SQLException {
    try (ResultSet rs = st.executeQuery(query)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  /** Updates the planner's statistics of {@code tables}. */
  public static String analyze(String... tables) {
    return (mysql() ? "ANALYZE TABLE " : "ANALYZE ") + String.join(", ", tables);
  }

  /**
   * Plants flows with raw SQL: {@code select} gives one row per flow of {@code columns} (pay_flow's
   * columns, comma-separated). PostgreSQL writes through the pay_flow view; on the MySQL family,
   * where the view is for reading, the facts go to pay_flow_fact and the state to pay_flow_state
   * (the select runs once per table, so it must give the same rows twice). Not guarded by the
   * triggers, as {@link FlowRowInsert}; the columns must include the attempt's key (merchant_id,
   * user_id, scene, biz_key, attempt_no) and status. Returns the number of flows written.
   */
  public static int insertFlows(Connection c, String columns, String select) throws SQLException {
    try (Statement st = c.createStatement()) {
      if (!mysql()) {
        return st.executeUpdate("INSERT INTO pay_flow (" + columns + ") " + select);
      }
      List<String> all = Arrays.stream(columns.split(",")).map(String::strip).toList();
      List<String> facts = all.stream().filter(FACT_COLUMNS::contains).toList();
      List<String> state = all.stream().filter(col -> !FACT_COLUMNS.contains(col)).toList();
      String source = "WITH x (" + String.join(", ", all) + ") AS (" + select + ") ";
      int written =
          st.executeUpdate(
              "INSERT INTO pay_flow_fact ("
                  + String.join(", ", facts)
                  + ", live) "
                  + source
                  + "SELECT "
                  + prefixed(facts)
                  + ", x.status NOT IN ('PAY_FAIL', 'CLOSED') FROM x");
      int states =
          st.executeUpdate(
              "INSERT INTO pay_flow_state (id, "
                  + String.join(", ", state)
                  + ") "
                  + source
                  + "SELECT f.id, "
                  + prefixed(state)
                  + " FROM x JOIN pay_flow_fact f ON "
                  + ATTEMPT_KEY);
      if (states != written) {
        throw new IllegalStateException(written + " flow facts but " + states + " states");
      }
      return written;
    }
  }

  /**
   * Runs a script of statements, each ended by a semicolon at the end of a line: the MariaDB driver
   * takes one statement per call.
   */
  public static void executeEach(Connection c, String script) throws SQLException {
    try (Statement st = c.createStatement()) {
      for (String sql : script.split(";\\s*(\\n|$)")) {
        if (!sql.isBlank()) {
          st.execute(sql);
        }
      }
    }
  }

  private static String prefixed(List<String> columns) {
    return columns.stream().map(col -> "x." + col).collect(Collectors.joining(", "));
  }
}
