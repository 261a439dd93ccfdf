package dev.clearway.sharding;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.shardingsphere.sharding.api.sharding.complex.ComplexKeysShardingAlgorithm;
import org.apache.shardingsphere.sharding.api.sharding.complex.ComplexKeysShardingValue;

/**
 * Routes a statement on a per-payment table to the shards its values name (see {@link ShardKeys}),
 * configured as a ShardingSphere {@code CLASS_BASED} complex algorithm. The first column group the
 * statement gives an exact value for decides:
 *
 * <ol>
 *   <li>an id carrying shard bits: {@code id}, {@code flow_id}, {@code attempt_id};
 *   <li>an order number derived from a flow id: {@code trade_order_no}, {@code refund_no}, {@code
 *       refund_order_no};
 *   <li>the goal's owner: {@code merchant_id} and {@code user_id};
 *   <li>an idempotency key: {@code merchant_id} and {@code idem_key}.
 * </ol>
 *
 * A statement that gives none of them (a claim, a scan, a count) goes to every shard. A value that
 * names a shard past the layout (an id or an order number from outside, a statement line, a path
 * parameter, a callback, shaped like ours but with shard bits no table carries) names no row: no
 * physical table hands out an id with those bits, so the statement goes to the first shard and
 * finds nothing there; a lookup answers "no such row" and an update changes no row. Rows are only
 * ever inserted with ids drawn by a shard's AUTO_INCREMENT or inherited from a row read on its
 * shard, never with a key taken from outside. A number of another form (no flow id in it) is
 * refused: callers that take foreign numbers check them first ({@code ShardedNumbers}). Properties:
 * {@code level} ({@code database} or {@code table}), {@code databases}, {@code
 * tables-per-database}. Target names end in {@code _<n>} ({@code ds_1}, {@code payment_order_0}).
 */
public final class ClearwayShardingAlgorithm
    implements ComplexKeysShardingAlgorithm<Comparable<?>> {

  private static final List<String> ID_COLUMNS =
      List.of("id", "flow_id", "attempt_id", "aggregate_id");
  private static final List<String> NUMBER_COLUMNS =
      List.of("trade_order_no", "refund_no", "refund_order_no");

  private boolean databaseLevel;
  private int tablesPerDatabase;
  private int shards;

  @Override
  public void init(Properties props) {
    String level = props.getProperty("level", "");
    if (!level.equals("database") && !level.equals("table")) {
      throw new IllegalArgumentException("level must be database or table, not '" + level + "'");
    }
    databaseLevel = level.equals("database");
    int databases = positive(props, "databases");
    tablesPerDatabase = positive(props, "tables-per-database");
    shards = databases * tablesPerDatabase;
  }

  private static int positive(Properties props, String key) {
    int value = Integer.parseInt(props.getProperty(key, "0").strip());
    if (value < 1) {
      throw new IllegalArgumentException(key + " must be a positive number");
    }
    return value;
  }

  @Override
  public Collection<String> doSharding(
      Collection<String> targets, ComplexKeysShardingValue<Comparable<?>> value) {
    // Runs for every routed statement: plain loops, no streams (its cost showed in profiles).
    Map<String, Collection<Comparable<?>>> columns = new HashMap<>();
    for (Map.Entry<String, Collection<Comparable<?>>> e :
        value.getColumnNameAndShardingValuesMap().entrySet()) {
      Collection<Comparable<?>> given = withoutNulls(e.getValue());
      if (!given.isEmpty()) {
        columns.put(e.getKey().toLowerCase(Locale.ROOT), given);
      }
    }
    Optional<Set<Integer>> named = shardsOf(columns);
    if (named.isEmpty()) {
      return targets;
    }
    Set<String> chosen = new LinkedHashSet<>();
    for (int shard : named.get()) {
      String suffix = "_" + (databaseLevel ? shard / tablesPerDatabase : shard % tablesPerDatabase);
      for (String target : targets) {
        if (target.endsWith(suffix)) {
          chosen.add(target);
        }
      }
    }
    return chosen;
  }

  /**
   * The values given, without the nulls of an insert that leaves an AUTO_INCREMENT id to the
   * server.
   */
  private static Collection<Comparable<?>> withoutNulls(Collection<Comparable<?>> values) {
    for (Comparable<?> v : values) {
      if (v == null) {
        List<Comparable<?>> given = new ArrayList<>(values.size());
        for (Comparable<?> w : values) {
          if (w != null) {
            given.add(w);
          }
        }
        return given;
      }
    }
    return values;
  }

  /** The shards the statement's values name, or empty when they name none (every shard). */
  Optional<Set<Integer>> shardsOf(Map<String, Collection<Comparable<?>>> columns) {
    for (String column : ID_COLUMNS) {
      if (columns.containsKey(column)) {
        Set<Integer> found = new LinkedHashSet<>();
        columns.get(column).forEach(v -> found.add(checked(ShardKeys.ofId(asLong(v)))));
        return Optional.of(found);
      }
    }
    for (String column : NUMBER_COLUMNS) {
      if (columns.containsKey(column)) {
        Set<Integer> found = new LinkedHashSet<>();
        for (Comparable<?> v : columns.get(column)) {
          var shard = ShardKeys.ofOrderNumber(String.valueOf(v));
          if (shard.isEmpty()) {
            throw new IllegalArgumentException(
                "order number carries no shard: " + column + " = " + v);
          }
          found.add(checked(shard.getAsInt()));
        }
        return Optional.of(found);
      }
    }
    Collection<Comparable<?>> merchants = columns.get("merchant_id");
    if (merchants != null && columns.containsKey("user_id")) {
      Set<Integer> found = new LinkedHashSet<>();
      for (Comparable<?> m : merchants) {
        for (Comparable<?> u : columns.get("user_id")) {
          found.add(ShardKeys.ofOwner(String.valueOf(m), asLong(u), shards));
        }
      }
      return Optional.of(found);
    }
    if (merchants != null && columns.containsKey("idem_key")) {
      Set<Integer> found = new LinkedHashSet<>();
      for (Comparable<?> m : merchants) {
        for (Comparable<?> k : columns.get("idem_key")) {
          found.add(ShardKeys.ofIdempotencyKey(String.valueOf(m), String.valueOf(k), shards));
        }
      }
      return Optional.of(found);
    }
    return Optional.empty();
  }

  /** {@code shard}, or the first shard when it lies past the layout (no row carries it). */
  private int checked(int shard) {
    return shard < shards ? shard : 0;
  }

  private static long asLong(Object v) {
    return v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v).strip());
  }

  @Override
  public String getType() {
    return "CLEARWAY_SHARD_BITS";
  }
}
