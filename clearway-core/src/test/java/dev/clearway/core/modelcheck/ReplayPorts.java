package dev.clearway.core.modelcheck;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Set;

/**
 * Wraps a port so that every call is a yield point of a {@link Session}: the worker that calls it
 * waits until the explorer lets it run, and the answer is recorded for the worker's next replay.
 */
public final class ReplayPorts {
  private ReplayPorts() {}

  /** {@code live} behind a yield point per call; told the chosen outcome if it is scripted. */
  public static <T> T port(Class<T> type, Session session, T live) {
    return port(type, session, live, Set.of());
  }

  /**
   * As {@link #port(Class, Session, Object)}, except that the methods named in {@code pure} (which
   * return constants, such as an adapter's capabilities) are called directly, without a yield.
   */
  public static <T> T port(Class<T> type, Session session, T live, Set<String> pure) {
    String port = type.getSimpleName();
    Object proxy =
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (self, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                return objectMethod(self, method, args, port);
              }
              if (pure.contains(method.getName())) {
                return invoke(live, method, args, null);
              }
              return session.call(
                  port, method.getName(), args, outcome -> invoke(live, method, args, outcome));
            });
    return type.cast(proxy);
  }

  private static Object invoke(Object live, Method method, Object[] args, String outcome)
      throws Throwable {
    if (outcome != null && live instanceof Scripted scripted) {
      scripted.choose(outcome);
    }
    try {
      return method.invoke(live, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static Object objectMethod(Object self, Method method, Object[] args, String port) {
    return switch (method.getName()) {
      case "equals" -> self == args[0];
      case "hashCode" -> System.identityHashCode(self);
      default -> "replayed " + port;
    };
  }

  /** A clock whose every reading is an answer of the session. */
  public static Clock clock(Session session) {
    return new SessionClock(session);
  }

  private static final class SessionClock extends Clock {
    private final Session session;

    SessionClock(Session session) {
      this.session = session;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return session.instant();
    }
  }
}
