package dev.clearway.store;

import dev.clearway.core.flow.domain.GoalKey;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A flow's goal key read from the columns that hold it on every row that carries one: {@code
 * merchant_id}, {@code user_id}, {@code scene} and {@code biz_key}.
 */
public final class GoalKeyColumns {

  private GoalKeyColumns() {}

  /** The goal key of the current row of {@code rs}. */
  public static GoalKey read(ResultSet rs) throws SQLException {
    return new GoalKey(
        rs.getString("merchant_id"),
        rs.getLong("user_id"),
        rs.getString("scene"),
        rs.getString("biz_key"));
  }
}
