package dev.clearway.store;

import dev.clearway.core.flow.domain.DomainEvent;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.Transitions;
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
  /**
   * Groups of workers' transitions written at once by the group commit: about the database's cores
   * on a small server; more writes than that wait and go together in the next group.
   */
  static final int IN_FLIGHT = 2;

  /** Transitions in one group (one statement, one commit) at most. */
  static final int MAX_SIZE = 64;

  private final Sql sql;
  private final String statement;

  TransitionGroup(Sql sql, String statement) {
    this.sql = sql;
    this.statement = statement;
  }

  /**
   * The group commit of concurrent workers' single transitions through this statement: {@link
   * #IN_FLIGHT} groups of at most {@link #MAX_SIZE} at once, a write alone through {@code alone}.
   */
  GroupCommit<TransitionWrite, Optional<PayFlow>> commit(
      Function<TransitionWrite, Optional<PayFlow>> alone) {
    return new GroupCommit<>(IN_FLIGHT, MAX_SIZE, w -> w.from().id(), alone, this::write);
  }

  /**
   * Writes {@code writes} (distinct flows, each under its writer's lease) in groups of at most
   * {@link #MAX_SIZE}, each group one statement and one commit; each write is still its own
   * lease-fenced CAS, empty when its row moved or its lease was lost while the others commit. A
   * group whose statement fails (a guard refusing one edge, a deadlock) wrote nothing and is
   * written again write by write through {@code alone}, so only the failing write fails. Results in
   * the writes' order.
   */
  List<Optional<PayFlow>> writeAll(
      List<TransitionWrite> writes, Function<TransitionWrite, Optional<PayFlow>> alone) {
    if (writes.stream().map(w -> w.from().id()).distinct().count() != writes.size()) {
      throw new IllegalArgumentException("the transitions of one call move distinct flows");
    }
    for (TransitionWrite w : writes) {
      Transitions.requireLegal(w.from().status(), w.to());
    }
    List<Optional<PayFlow>> results = new ArrayList<>(writes.size());
    for (int from = 0; from < writes.size(); from += MAX_SIZE) {
      List<TransitionWrite> part = writes.subList(from, Math.min(writes.size(), from + MAX_SIZE));
      try {
        results.addAll(write(part));
      } catch (RuntimeException groupFailed) {
        for (TransitionWrite w : part) {
          results.add(alone.apply(w));
        }
      }
    }
    return results;
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
