package dev.clearway.store;

import dev.clearway.core.flow.domain.DomainEvent;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Workers' transitions of distinct flows written in one statement ({@link
 * SqlDialect#transitionGroupSql}) and so one commit: each is the same CAS on (status, version)
 * fenced by its writer's lease as a transition written alone, and each gets the row it wrote, or
 * empty when its own row did not match.
 */
final class TransitionGroup {
  private final Sql sql;
  private final String statement;

  TransitionGroup(Sql sql, String statement) {
    this.sql = sql;
    this.statement = statement;
  }

  /** Writes {@code writes} (distinct flows, each with its holder); results in the same order. */
  List<Optional<PayFlow>> write(List<TransitionWrite> writes) {
    for (TransitionWrite w : writes) {
      if (w.holder() == null) {
        throw new IllegalArgumentException("a group holds workers' writes, each under its lease");
      }
    }
    List<PayFlow> rows =
        sql.query(
            statement,
            ps -> {
              Connection c = ps.getConnection();
              int i = 1;
              ps.setArray(i++, longs(c, writes, w -> w.from().id()));
              ps.setArray(i++, texts(c, writes, w -> w.from().status().name()));
              ps.setArray(i++, longs(c, writes, w -> w.from().version()));
              ps.setArray(i++, texts(c, writes, w -> w.to().name()));
              ps.setArray(i++, texts(c, writes, w -> iso(w.nextRetryTime())));
              ps.setArray(i++, texts(c, writes, TransitionWrite::leaseToken));
              ps.setArray(i++, texts(c, writes, TransitionWrite::holder));
              ps.setArray(i++, texts(c, writes, TransitionWrite::errorCode));
              ps.setArray(i++, texts(c, writes, w -> w.note().requestId()));
              ps.setArray(i++, texts(c, writes, w -> w.note().trigger().name()));
              ps.setArray(i++, texts(c, writes, w -> w.note().resultClass()));
              ps.setArray(i++, longs(c, writes, w -> w.note().elapsedMillis()));
              ps.setArray(i++, texts(c, writes, w -> iso(w.now())));
              ps.setArray(i, texts(c, writes, TransitionGroup::event));
            },
            FlowRows::map);
    Map<Long, PayFlow> byId =
        rows.stream().collect(Collectors.toMap(PayFlow::id, Function.identity()));
    List<Optional<PayFlow>> results = new ArrayList<>(writes.size());
    for (TransitionWrite w : writes) {
      results.add(Optional.ofNullable(byId.get(w.from().id())));
    }
    return results;
  }

  /** The outbox event of entering the target status, for states that state a fact. */
  private static String event(TransitionWrite w) {
    return DomainEvent.onEntering(w.to()).map(Enum::name).orElse(null);
  }

  private static String iso(Instant instant) {
    return instant == null ? null : instant.toString();
  }

  private static java.sql.Array longs(
      Connection c, List<TransitionWrite> writes, Function<TransitionWrite, Long> value)
      throws SQLException {
    return c.createArrayOf("bigint", writes.stream().map(value).toArray(Long[]::new));
  }

  private static java.sql.Array texts(
      Connection c, List<TransitionWrite> writes, Function<TransitionWrite, String> value)
      throws SQLException {
    return c.createArrayOf("text", writes.stream().map(value).toArray(String[]::new));
  }
}
