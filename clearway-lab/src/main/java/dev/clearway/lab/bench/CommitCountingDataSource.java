package dev.clearway.lab.bench;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * A DataSource over a real one that counts the transactions its connections commit: every {@code
 * commit()} of a connection out of autocommit, and every statement run in autocommit (its own
 * transaction). The count is the client's side of what the database commits, the same on PostgreSQL
 * and the MySQL family; read-only transactions count too.
 */
final class CommitCountingDataSource {
  private static final Set<String> EXECUTES =
      Set.of("execute", "executeQuery", "executeUpdate", "executeBatch", "executeLargeUpdate");

  private final AtomicLong commits = new AtomicLong();
  private final DataSource counted;

  CommitCountingDataSource(DataSource real) {
    this.counted =
        proxy(
            DataSource.class,
            real,
            (method, result) ->
                method.getName().equals("getConnection")
                    ? connection((Connection) result)
                    : result);
  }

  /** The counting DataSource. */
  DataSource dataSource() {
    return counted;
  }

  /** Transactions committed so far through {@link #dataSource()}. */
  long commits() {
    return commits.get();
  }

  private Connection connection(Connection real) {
    return proxy(
        Connection.class,
        real,
        (method, result) -> {
          if (method.getName().equals("commit") && !real.getAutoCommit()) {
            commits.incrementAndGet();
          }
          if (result instanceof Statement st && method.getName().endsWith("Statement")) {
            return statement(real, st, method.getReturnType());
          }
          return result;
        });
  }

  @SuppressWarnings("unchecked")
  private <T> T statement(Connection c, Statement real, Class<T> type) throws Exception {
    return proxy(
        type,
        (T) real,
        (method, result) -> {
          if (EXECUTES.contains(method.getName()) && c.getAutoCommit()) {
            commits.incrementAndGet();
          }
          return result;
        });
  }

  /** What a proxy does with the result of a call the real object answered. */
  @FunctionalInterface
  private interface After {
    Object apply(Method method, Object result) throws Exception;
  }

  private static <T> T proxy(Class<T> type, T real, After after) {
    InvocationHandler handler =
        (p, method, args) -> {
          try {
            return after.apply(method, method.invoke(real, args));
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }
}
