package dev.clearway.sharding;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.shardingsphere.driver.yaml.YamlJDBCConfiguration;
import org.apache.shardingsphere.infra.expr.core.InlineExpressionParserFactory;
import org.apache.shardingsphere.infra.util.yaml.YamlEngine;
import org.apache.shardingsphere.infra.yaml.config.pojo.rule.YamlRuleConfiguration;
import org.apache.shardingsphere.sharding.yaml.config.YamlShardingRuleConfiguration;

/**
 * What a ShardingSphere YAML file lays out: its physical databases (in the file's order; the first
 * holds the tables that are not sharded) and, per sharded table, its physical tables with their
 * shard numbers.
 *
 * @param databases physical database name to its JDBC URL, user and password
 * @param shards sharded logic table to its physical tables
 */
public record ShardingLayout(Map<String, Physical> databases, Map<String, List<Node>> shards) {

  /** A physical database. */
  public record Physical(String jdbcUrl, String user, String password) {}

  /** A physical table of a sharded table: database, table name, shard number. */
  public record Node(String database, String table, int shard) {}

  private static final Pattern SUFFIX = Pattern.compile("_(\\d+)$");

  /** Reads the layout of the file behind a {@code jdbc:shardingsphere:absolutepath:} URL. */
  public static ShardingLayout ofUrl(String url) {
    String prefix = "jdbc:shardingsphere:absolutepath:";
    if (!url.startsWith(prefix)) {
      throw new IllegalArgumentException("not a " + prefix + " URL: " + url);
    }
    String path = url.substring(prefix.length());
    int query = path.indexOf('?');
    return read(new File(query < 0 ? path : path.substring(0, query)));
  }

  /** Reads the layout of a ShardingSphere-JDBC YAML file. */
  public static ShardingLayout read(File yaml) {
    YamlJDBCConfiguration config;
    try {
      config = YamlEngine.unmarshal(yaml, YamlJDBCConfiguration.class);
    } catch (IOException e) {
      throw new UncheckedIOException("read " + yaml, e);
    }
    Map<String, Physical> databases = new LinkedHashMap<>();
    config
        .getDataSources()
        .forEach(
            (name, props) ->
                databases.put(
                    name,
                    new Physical(
                        text(props.getOrDefault("jdbcUrl", props.get("url"))),
                        text(props.get("username")),
                        text(props.get("password")))));
    Map<String, List<Node>> shards = new LinkedHashMap<>();
    for (YamlRuleConfiguration rule : config.getRules()) {
      if (rule instanceof YamlShardingRuleConfiguration sharding) {
        sharding
            .getTables()
            .forEach((table, t) -> shards.put(table, nodes(t.getActualDataNodes())));
      }
    }
    return new ShardingLayout(databases, shards);
  }

  private static String text(Object value) {
    return value == null ? null : String.valueOf(value);
  }

  /**
   * The physical tables of {@code dataNodes} ({@code ds_${0..1}.t_${0..1}}): shard {@code d * T +
   * j} for table {@code t_j} in database {@code ds_d}, T tables per database.
   */
  private static List<Node> nodes(String dataNodes) {
    List<String> expanded = InlineExpressionParserFactory.newInstance(dataNodes).splitAndEvaluate();
    Map<String, Integer> perDatabase = new LinkedHashMap<>();
    for (String node : expanded) {
      perDatabase.merge(node.substring(0, node.indexOf('.')), 1, Integer::sum);
    }
    List<Node> nodes = new ArrayList<>();
    for (String node : expanded) {
      String database = node.substring(0, node.indexOf('.'));
      String table = node.substring(node.indexOf('.') + 1);
      int shard = number(database) * perDatabase.get(database) + number(table);
      nodes.add(new Node(database, table, shard));
    }
    return nodes;
  }

  private static int number(String name) {
    Matcher m = SUFFIX.matcher(name);
    if (!m.find()) {
      throw new IllegalArgumentException("a sharded data node must end in _<n>: " + name);
    }
    return Integer.parseInt(m.group(1));
  }

  /** The database that holds the tables that are not sharded: the file's first. */
  public String singleTablesDatabase() {
    return databases.keySet().iterator().next();
  }
}
