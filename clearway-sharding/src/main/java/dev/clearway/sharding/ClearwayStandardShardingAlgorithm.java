package dev.clearway.sharding;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.shardingsphere.sharding.api.sharding.standard.PreciseShardingValue;
import org.apache.shardingsphere.sharding.api.sharding.standard.RangeShardingValue;
import org.apache.shardingsphere.sharding.api.sharding.standard.StandardShardingAlgorithm;

/**
 * {@link ClearwayShardingAlgorithm}'s routing for a table sharded by one column (a flow's history
 * by {@code flow_id}, its state by {@code id}), configured as a ShardingSphere {@code CLASS_BASED}
 * standard algorithm with the same properties. Same shards for the same value; ShardingSphere
 * routes a standard strategy with less work per statement than a complex one (it compares the one
 * column instead of splitting the column list for every column of the statement). A value past the
 * layout goes to the first shard, as there (no row carries it); a null is refused; a range goes to
 * every shard.
 */
public final class ClearwayStandardShardingAlgorithm
    implements StandardShardingAlgorithm<Comparable<?>> {

  private final ClearwayShardingAlgorithm shards = new ClearwayShardingAlgorithm();
  private boolean databaseLevel;
  private int tablesPerDatabase;

  @Override
  public void init(Properties props) {
    shards.init(props);
    databaseLevel = "database".equals(props.getProperty("level"));
    tablesPerDatabase = Integer.parseInt(props.getProperty("tables-per-database").strip());
  }

  @Override
  public String doSharding(Collection<String> targets, PreciseShardingValue<Comparable<?>> value) {
    Comparable<?> v = value.getValue();
    if (v != null) {
      Optional<Set<Integer>> named =
          shards.shardsOf(Map.of(value.getColumnName().toLowerCase(Locale.ROOT), List.of(v)));
      if (named.isPresent() && named.get().size() == 1) {
        int shard = named.get().iterator().next();
        String suffix =
            "_" + (databaseLevel ? shard / tablesPerDatabase : shard % tablesPerDatabase);
        for (String target : targets) {
          if (target.endsWith(suffix)) {
            return target;
          }
        }
      }
    }
    // No single shard named: ShardingSphere's standard strategy takes one target per value, so
    // such a statement is refused rather than sent to one shard it may not belong to.
    throw new IllegalArgumentException(
        "value " + v + " of " + value.getColumnName() + " names no single shard");
  }

  @Override
  public Collection<String> doSharding(
      Collection<String> targets, RangeShardingValue<Comparable<?>> value) {
    return new LinkedHashSet<>(targets);
  }

  @Override
  public String getType() {
    return "CLEARWAY_SHARD_BITS_STANDARD";
  }
}
