package dev.clearway.store.migration;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.migration.domain.LegacyAnswer;
import dev.clearway.core.migration.port.LegacyPaymentStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The legacy payment store read by a configured query on a configured data source. The query names
 * the goal with {@code :merchant}, {@code :userId}, {@code :scene} and {@code :bizKey} (each bound
 * as a parameter, never spliced into the text) and returns one row per legacy payment of the goal
 * that Clearway must not pay over, its first column the legacy reference, for example:
 *
 * <pre>
 * SELECT order_no FROM legacy_payment
 *  WHERE merchant = :merchant AND user_id = :userId AND scene = :scene AND biz_key = :bizKey
 *    AND status IN ('CREATED', 'PAYING')
 * </pre>
 *
 * A row: in flight (the first row's reference). No row: clear. The store unreachable, the query
 * failing or running past its timeout: unknown.
 */
public final class JdbcLegacyPaymentStore implements LegacyPaymentStore {
  private static final Pattern NAMED = Pattern.compile(":(merchant|userId|scene|bizKey)\\b");

  private final DataSource dataSource;
  private final String sql;
  private final List<String> names;
  private final int timeoutSeconds;

  /**
   * @param query the configured query with named parameters
   * @param timeoutSeconds the most the query may run (at least 1)
   */
  public JdbcLegacyPaymentStore(DataSource dataSource, String query, int timeoutSeconds) {
    if (query == null || query.isBlank()) {
      throw new IllegalArgumentException("the legacy store query is empty");
    }
    this.dataSource = dataSource;
    this.names = new ArrayList<>();
    Matcher m = NAMED.matcher(query);
    StringBuilder positional = new StringBuilder();
    while (m.find()) {
      names.add(m.group(1));
      m.appendReplacement(positional, "?");
    }
    m.appendTail(positional);
    if (names.isEmpty()) {
      throw new IllegalArgumentException(
          "the legacy store query names no goal parameter (:merchant, :userId, :scene, :bizKey)");
    }
    this.sql = positional.toString();
    this.timeoutSeconds = Math.max(1, timeoutSeconds);
  }

  @Override
  public LegacyAnswer probe(GoalKey goal) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setQueryTimeout(timeoutSeconds);
      for (int i = 0; i < names.size(); i++) {
        bind(ps, i + 1, names.get(i), goal);
      }
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return LegacyAnswer.clear();
        }
        String reference = rs.getString(1);
        return LegacyAnswer.inFlight(reference == null ? "" : reference);
      }
    } catch (SQLException | RuntimeException e) {
      return LegacyAnswer.unknown("legacy store: " + e.getClass().getSimpleName());
    }
  }

  private static void bind(PreparedStatement ps, int index, String name, GoalKey goal)
      throws SQLException {
    switch (name) {
      case "merchant" -> ps.setString(index, goal.merchant());
      case "userId" -> ps.setLong(index, goal.userId());
      case "scene" -> ps.setString(index, goal.scene());
      default -> ps.setString(index, goal.bizKey());
    }
  }
}
