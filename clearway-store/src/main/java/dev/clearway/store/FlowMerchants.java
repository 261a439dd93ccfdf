package dev.clearway.store;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The merchants of a page's flows, read from the facts by one statement, for lists whose rows live
 * in another table than the flow's: a join of that table with the facts is routed by a sharding
 * driver to every pair of their physical tables (a LEFT JOIN then repeats each row once per pair),
 * while a lookup by ids or order numbers reaches only the shards those values carry. The same
 * statement on every database.
 */
public final class FlowMerchants {

  private FlowMerchants() {}

  /** The merchant of each flow id found (a flow archived since is absent). */
  public static Map<Long, String> of(Sql sql, Collection<Long> flowIds) {
    Set<Long> ids = new LinkedHashSet<>(flowIds);
    if (ids.isEmpty()) {
      return Collections.emptyMap();
    }
    List<Long> list = List.copyOf(ids);
    Map<Long, String> merchants = new HashMap<>();
    sql.query(
        "SELECT id, merchant_id FROM pay_flow_fact WHERE id IN (" + marks(list.size()) + ")",
        ps -> {
          for (int i = 0; i < list.size(); i++) {
            ps.setLong(i + 1, list.get(i));
          }
        },
        rs -> merchants.put(rs.getLong(1), rs.getString(2)));
    return merchants;
  }

  /** The merchant of each trade order number a flow carries (others are absent). */
  public static Map<String, String> ofOrders(Sql sql, Collection<String> orderNos) {
    Set<String> numbers = new LinkedHashSet<>();
    orderNos.stream().filter(n -> n != null).forEach(numbers::add);
    if (numbers.isEmpty()) {
      return Collections.emptyMap();
    }
    List<String> list = List.copyOf(numbers);
    Map<String, String> merchants = new HashMap<>();
    sql.query(
        "SELECT trade_order_no, merchant_id FROM pay_flow_fact WHERE trade_order_no IN ("
            + marks(list.size())
            + ")",
        ps -> {
          for (int i = 0; i < list.size(); i++) {
            ps.setString(i + 1, list.get(i));
          }
        },
        rs -> merchants.put(rs.getString(1), rs.getString(2)));
    return merchants;
  }

  private static String marks(int n) {
    return String.join(", ", Collections.nCopies(n, "?"));
  }
}
