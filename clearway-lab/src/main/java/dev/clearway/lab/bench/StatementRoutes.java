package dev.clearway.lab.bench;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.apache.shardingsphere.driver.jdbc.core.statement.ShardingSpherePreparedStatement;
import org.apache.shardingsphere.driver.jdbc.core.statement.ShardingSphereStatement;

/**
 * Counts logical statements (run on the DataSource the engine uses) and the physical statements
 * they ran as (run on a physical database's connection, {@link RouteCountingDataSource}) while a
 * window is open. A logical statement's routes are the physical statements it ran on its own
 * thread, or the statements ShardingSphere routed it to ({@code getRoutedStatements()}) if more:
 * ShardingSphere runs the first group of a statement that reaches several databases on the calling
 * thread and the others on its executor. A statement with more than one route is a broadcast.
 *
 * <p>A window also measures this JVM's CPU time ({@code cpuNanos}).
 *
 * <p>Statements of the scanner's thread ({@code *-scanner}: the claims of due work, which name no
 * payment and reach every shard by design) are counted apart from the payment path: the threads
 * that start payments and the engine's workers.
 */
final class StatementRoutes {
  /** The counts of this process: ShardingSphere creates the physical pools itself. */
  static final StatementRoutes PROCESS = new StatementRoutes();

  private static final Set<String> EXECUTES =
      Set.of("execute", "executeQuery", "executeUpdate", "executeBatch", "executeLargeUpdate");

  /**
   * Counts of one window. {@code physical} counts every physical statement, whatever thread ran it;
   * the routes are per logical statement.
   */
  record Counts(
      long paymentStatements,
      long paymentRoutes,
      long paymentBroadcasts,
      long scanStatements,
      long scanRoutes,
      long scanBroadcasts,
      long physical,
      long physicalCommits,
      long cpuNanos) {}

  private final ThreadLocal<int[]> current = new ThreadLocal<>();
  private final AtomicLong paymentStatements = new AtomicLong();
  private final AtomicLong paymentRoutes = new AtomicLong();
  private final AtomicLong paymentBroadcasts = new AtomicLong();
  private final AtomicLong scanStatements = new AtomicLong();
  private final AtomicLong scanRoutes = new AtomicLong();
  private final AtomicLong scanBroadcasts = new AtomicLong();
  private final AtomicLong physical = new AtomicLong();
  private final AtomicLong physicalCommits = new AtomicLong();
  private volatile boolean open;
  private long cpuAtOpen;

  private StatementRoutes() {}

  /** Zeroes the counts and counts from now on. */
  synchronized void open() {
    for (AtomicLong c :
        new AtomicLong[] {
          paymentStatements,
          paymentRoutes,
          paymentBroadcasts,
          scanStatements,
          scanRoutes,
          scanBroadcasts,
          physical,
          physicalCommits
        }) {
      c.set(0);
    }
    cpuAtOpen = processCpuNanos();
    open = true;
  }

  /** Stops counting and returns the window's counts. */
  synchronized Counts close() {
    open = false;
    return new Counts(
        paymentStatements.get(),
        paymentRoutes.get(),
        paymentBroadcasts.get(),
        scanStatements.get(),
        scanRoutes.get(),
        scanBroadcasts.get(),
        physical.get(),
        physicalCommits.get(),
        processCpuNanos() - cpuAtOpen);
  }

  /** This JVM's CPU time so far: the clients, the engine and ShardingSphere. */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * A physical database's connection whose statements count as routes, and whose transactions count
   * as physical commits: every {@code commit()} out of autocommit after a statement since the last
   * commit or rollback (the MySQL family's drivers send nothing for a commit with no transaction
   * open), and every statement in autocommit.
   */
  Connection physical(Connection real) {
    boolean[] worked = new boolean[1];
    Execute counting =
        (st, method, args) -> {
          worked[0] = true;
          return countPhysical(st, method, args);
        };
    return proxy(
        Connection.class,
        real,
        (method, args) -> {
          String name = method.getName();
          if (name.equals("commit") || name.equals("rollback")) {
            if (open && name.equals("commit") && worked[0] && !real.getAutoCommit()) {
              physicalCommits.incrementAndGet();
            }
            worked[0] = false;
          }
          return counted(method.invoke(real, args), method, counting);
        });
  }

  /** The logical DataSource whose statements count as logical statements. */
  DataSource logical(DataSource real) {
    return proxy(
        DataSource.class,
        real,
        (method, args) -> {
          Object result = method.invoke(real, args);
          return method.getName().equals("getConnection")
              ? connection((Connection) result, this::countLogical)
              : result;
        });
  }

  /** What a counted statement does around one execute call of {@code st}. */
  @FunctionalInterface
  private interface Execute {
    Object around(Statement st, Method method, Object[] args) throws Throwable;
  }

  private Object countPhysical(Statement st, Method method, Object[] args) throws Throwable {
    if (open) {
      physical.incrementAndGet();
      if (st.getConnection().getAutoCommit()) {
        physicalCommits.incrementAndGet();
      }
      int[] routes = current.get();
      if (routes != null) {
        routes[0]++;
      }
    }
    return method.invoke(st, args);
  }

  private Object countLogical(Statement st, Method method, Object[] args) throws Throwable {
    if (!open) {
      return method.invoke(st, args);
    }
    int[] routes = new int[1];
    current.set(routes);
    try {
      return method.invoke(st, args);
    } finally {
      current.remove();
      record(Math.max(routes[0], routed(st)));
    }
  }

  private void record(int routes) {
    boolean scan = Thread.currentThread().getName().endsWith("-scanner");
    (scan ? scanStatements : paymentStatements).incrementAndGet();
    (scan ? scanRoutes : paymentRoutes).addAndGet(routes);
    if (routes > 1) {
      (scan ? scanBroadcasts : paymentBroadcasts).incrementAndGet();
    }
  }

  /** The statements ShardingSphere routed {@code st}'s last execution to; 0 on a plain driver. */
  private static int routed(Statement st) throws SQLException {
    if (st.isWrapperFor(ShardingSpherePreparedStatement.class)) {
      return st.unwrap(ShardingSpherePreparedStatement.class).getRoutedStatements().size();
    }
    if (st.isWrapperFor(ShardingSphereStatement.class)) {
      return st.unwrap(ShardingSphereStatement.class).getRoutedStatements().size();
    }
    return 0;
  }

  private static Connection connection(Connection real, Execute execute) {
    return proxy(
        Connection.class,
        real,
        (method, args) -> counted(method.invoke(real, args), method, execute));
  }

  /** A statement a connection's {@code method} returned, counted; any other result as it is. */
  private static Object counted(Object result, Method method, Execute execute) {
    if (result instanceof Statement st && method.getName().endsWith("Statement")) {
      return statement(st, method.getReturnType(), execute);
    }
    return result;
  }

  @SuppressWarnings("unchecked")
  private static <T> T statement(Statement real, Class<T> type, Execute execute) {
    return proxy(
        type,
        (T) real,
        (method, args) ->
            EXECUTES.contains(method.getName())
                ? execute.around(real, method, args)
                : method.invoke(real, args));
  }

  /** A call forwarded to the real object. */
  @FunctionalInterface
  private interface Call {
    Object apply(Method method, Object[] args) throws Throwable;
  }

  private static <T> T proxy(Class<T> type, T real, Call call) {
    InvocationHandler handler =
        (p, method, args) -> {
          try {
            return call.apply(method, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }
}
