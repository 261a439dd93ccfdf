package dev.clearway.lab.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;

/** The largest tables of the schema with their indexes and TOAST (pg_total_relation_size). */
final class TableSizes {
  private TableSizes() {}

  /** Table name to bytes, largest first, at most {@code limit} tables. */
  static Map<String, Long> largest(DataSource dataSource, int limit) {
    String sql =
        "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c"
            + " JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema()"
            + " ORDER BY 2 DESC, 1 LIMIT ?";
    Map<String, Long> sizes = new LinkedHashMap<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement st = c.prepareStatement(sql)) {
      st.setInt(1, limit);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          sizes.put(rs.getString(1), rs.getLong(2));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("read the table sizes", e);
    }
    return sizes;
  }
}
