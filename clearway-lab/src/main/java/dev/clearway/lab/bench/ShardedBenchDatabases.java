package dev.clearway.lab.bench;

import dev.clearway.sharding.ShardedSchemaInstaller;
import dev.clearway.sharding.ShardingLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The databases of one {@code bench sharded} run on the server of a sharding layout (the shipped
 * {@code deploy/sharding/clearway-mariadb.yaml}): one unsharded database and the layout's physical
 * databases, all named {@code clearway_bench_<pid>_<run>_*}. The layout is copied to a temporary
 * YAML with those names, {@link RouteCountingDataSource} as every physical pool and each pool at
 * least the size given; the physical schema is installed by {@link ShardedSchemaInstaller}, the
 * unsharded one by Flyway when the bench connects. {@link #close()} drops every database and the
 * YAML.
 */
final class ShardedBenchDatabases implements AutoCloseable {
  private static final AtomicInteger RUNS = new AtomicInteger();
  private static final Pattern PHYSICAL_URL =
      Pattern.compile("(jdbcUrl:\\s*jdbc:[a-z]+://[^/\\s]+/)([A-Za-z0-9_]+)");
  private static final Pattern POOL_SIZE = Pattern.compile("(?m)^(\\s*maximumPoolSize:\\s*)(\\d+)");
  private static final String HIKARI = "dataSourceClassName: com.zaxxer.hikari.HikariDataSource";

  private final String admin;
  private final String unshardedUrl;
  private final Path yaml;
  private final List<String> created = new ArrayList<>();

  private ShardedBenchDatabases(String admin, String unshardedUrl, Path yaml) {
    this.admin = admin;
    this.unshardedUrl = unshardedUrl;
    this.yaml = yaml;
  }

  /**
   * Creates the databases from {@code layout} and installs the sharded schema; every physical pool
   * gets at least {@code physicalPool} connections.
   */
  static ShardedBenchDatabases create(Path layout, int physicalPool) {
    String prefix =
        "clearway_bench_" + ProcessHandle.current().pid() + "_" + RUNS.incrementAndGet();
    try {
      String shipped = Files.readString(layout);
      if (!shipped.contains(HIKARI)) {
        throw new IllegalArgumentException("every data source of " + layout + " must be Hikari's");
      }
      List<String> names = new ArrayList<>();
      Matcher m = PHYSICAL_URL.matcher(shipped);
      StringBuilder generated = new StringBuilder();
      while (m.find()) {
        String name = prefix + "_" + m.group(2).replaceFirst("^clearway_", "");
        names.add(name);
        m.appendReplacement(generated, Matcher.quoteReplacement(m.group(1) + name));
      }
      m.appendTail(generated);
      Path yaml = Files.createTempFile(prefix, ".yaml");
      Files.writeString(
          yaml,
          atLeast(
              generated
                  .toString()
                  .replace(
                      HIKARI, "dataSourceClassName: " + RouteCountingDataSource.class.getName()),
              physicalPool));
      String url = "jdbc:shardingsphere:absolutepath:" + yaml.toAbsolutePath();
      ShardingLayout.Physical first =
          ShardingLayout.ofUrl(url).databases().values().iterator().next();
      String admin = withDatabase(withUser(first), "");
      ShardedBenchDatabases dbs =
          new ShardedBenchDatabases(
              admin, withDatabase(withUser(first), prefix + "_unsharded"), yaml);
      try {
        dbs.createDatabase(prefix + "_unsharded");
        for (String name : names) {
          dbs.createDatabase(name);
        }
        new ShardedSchemaInstaller(ShardingLayout.ofUrl(url)).install();
      } catch (SQLException | RuntimeException e) {
        dbs.close();
        throw e;
      }
      return dbs;
    } catch (IOException e) {
      throw new UncheckedIOException("generate the sharding YAML from " + layout, e);
    } catch (SQLException e) {
      throw new IllegalStateException("create the bench databases", e);
    }
  }

  /** The unsharded database's URL (the first physical database's server and parameters). */
  String unshardedUrl() {
    return unshardedUrl;
  }

  /** The sharded URL: ShardingSphere-JDBC over the generated YAML. */
  String shardedUrl() {
    return "jdbc:shardingsphere:absolutepath:" + yaml.toAbsolutePath();
  }

  /** The databases this run created, in creation order. */
  List<String> databases() {
    return List.copyOf(created);
  }

  private void createDatabase(String name) throws SQLException {
    admin("CREATE DATABASE " + name);
    created.add(name);
  }

  private void admin(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(admin);
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  @Override
  public void close() {
    List<String> failed = new ArrayList<>();
    for (String name : created) {
      try {
        admin("DROP DATABASE IF EXISTS " + name);
      } catch (SQLException e) {
        failed.add(name + ": " + e.getMessage());
      }
    }
    try {
      Files.deleteIfExists(yaml);
    } catch (IOException e) {
      failed.add(yaml + ": " + e.getMessage());
    }
    if (!failed.isEmpty()) {
      throw new IllegalStateException("drop the bench databases: " + failed);
    }
  }

  /** The YAML with every {@code maximumPoolSize} raised to {@code pool} where it is smaller. */
  private static String atLeast(String yaml, int pool) {
    Matcher m = POOL_SIZE.matcher(yaml);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      int size = Math.max(pool, Integer.parseInt(m.group(2)));
      m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + size));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** The physical database's URL with its user and password as URL parameters. */
  private static String withUser(ShardingLayout.Physical db) {
    String url = db.jdbcUrl();
    String sep = url.contains("?") ? "&" : "?";
    String user = db.user() == null ? "" : sep + "user=" + db.user();
    String password =
        db.password() == null || db.password().isEmpty() ? "" : "&password=" + db.password();
    return url + user + password;
  }

  /** Replaces the database name in a URL such as jdbc:mariadb://host:port/db?params. */
  private static String withDatabase(String url, String database) {
    int query = url.indexOf('?');
    String base = query < 0 ? url : url.substring(0, query);
    return base.substring(0, base.lastIndexOf('/') + 1)
        + database
        + (query < 0 ? "" : url.substring(query));
  }
}
