package dev.clearway.store.channel;

import dev.clearway.core.channel.port.AttemptStore.RecordResult;
import dev.clearway.store.SqlErrors;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * One transaction of the channel stores. It commits unless the work answers a lost {@link
 * RecordResult} or an empty {@link Optional} (then nothing it wrote stays); an insert of an attempt
 * that a unique key refused (a concurrent insert) answers empty.
 */
final class ChannelTransaction {

  static final String INSERT_ATTEMPT = "insert attempt";

  private final DataSource dataSource;

  ChannelTransaction(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @FunctionalInterface
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  <T> T run(String operation, Work<T> work) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        T result = work.run(c);
        if (result instanceof RecordResult r && r != RecordResult.RECORDED
            || result instanceof Optional<?> o && o.isEmpty()) {
          c.rollback();
        } else {
          c.commit();
        }
        return result;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        if (e instanceof SQLException s && SqlErrors.isUniqueViolation(s)) {
          // Race: uk_attempt_live or uk_attempt_provider_key refused a concurrent insert.
          @SuppressWarnings("unchecked")
          T empty = (T) Optional.empty();
          if (INSERT_ATTEMPT.equals(operation)) {
            return empty;
          }
        }
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new StoreException(operation, e);
    }
  }
}
