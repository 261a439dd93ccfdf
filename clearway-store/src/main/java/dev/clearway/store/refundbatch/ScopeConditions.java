package dev.clearway.store.refundbatch;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.refundbatch.domain.BatchScope;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;

/**
 * A batch scope's optional bounds as SQL conditions on the flow's columns: only the bounds that are
 * set become conditions (paid from, paid to), the business keys an IN list, and an empty key list
 * matches nothing.
 */
final class ScopeConditions {
  private ScopeConditions() {}

  /** The conditions, each starting with {@code AND}, on columns prefixed by {@code alias}. */
  static String where(BatchScope s, String alias) {
    List<String> keys = s.bizKeys();
    return (s.paidFrom() == null ? "" : " AND " + alias + "created_at >= ?")
        + (s.paidTo() == null ? "" : " AND " + alias + "created_at < ?")
        + (keys == null
            ? ""
            : keys.isEmpty()
                ? " AND 1 = 0"
                : " AND "
                    + alias
                    + "biz_key IN ("
                    + String.join(", ", Collections.nCopies(keys.size(), "?"))
                    + ")");
  }

  /** Binds what {@link #where} asks for from parameter {@code i}; returns the next index. */
  static int bind(PreparedStatement ps, int i, BatchScope s) throws SQLException {
    if (s.paidFrom() != null) {
      ps.setObject(i++, ts(s.paidFrom()));
    }
    if (s.paidTo() != null) {
      ps.setObject(i++, ts(s.paidTo()));
    }
    for (String key : s.bizKeys() == null ? List.<String>of() : s.bizKeys()) {
      ps.setString(i++, key);
    }
    return i;
  }
}
