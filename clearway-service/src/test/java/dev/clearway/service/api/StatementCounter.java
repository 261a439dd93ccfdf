package dev.clearway.service.api;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * Wraps a pool and counts the SQL statements prepared or created on threads whose name starts with
 * one of the given prefixes (Tomcat's request threads: {@code http-nio}), so a test sees which
 * queries a request ran, apart from the background workers sharing the pool.
 */
final class StatementCounter {
  private final String[] threadPrefixes;
  private final AtomicInteger count = new AtomicInteger();

  StatementCounter(String... threadPrefixes) {
    this.threadPrefixes = threadPrefixes.clone();
  }

  int count() {
    return count.get();
  }

  void reset() {
    count.set(0);
  }

  DataSource wrap(DataSource pool) {
    return proxy(
        DataSource.class,
        pool,
        (method, result) ->
            method.getName().equals("getConnection")
                ? proxy(Connection.class, (Connection) result, this::onConnectionCall)
                : result);
  }

  private Object onConnectionCall(Method method, Object result) {
    String name = method.getName();
    if ((name.startsWith("prepare") || name.equals("createStatement")) && counted()) {
      count.incrementAndGet();
    }
    return result;
  }

  private boolean counted() {
    String thread = Thread.currentThread().getName();
    for (String prefix : threadPrefixes) {
      if (thread.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  @FunctionalInterface
  private interface After {
    Object apply(Method method, Object result);
  }

  private static <T> T proxy(Class<T> type, T target, After after) {
    InvocationHandler handler =
        (p, method, args) -> {
          try {
            return after.apply(method, method.invoke(target, args));
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return type.cast(
        Proxy.newProxyInstance(
            StatementCounter.class.getClassLoader(), new Class<?>[] {type}, handler));
  }
}
