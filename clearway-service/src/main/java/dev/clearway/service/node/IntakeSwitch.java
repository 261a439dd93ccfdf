package dev.clearway.service.node;

import dev.clearway.store.SqlDialect;
import dev.clearway.store.SqlDialects;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * Whether new payments are accepted, for every node of the deployment: the {@link AuditedSwitch} of
 * {@code intake_switch} (audited in {@code intake_audit}), open until an operator closes it.
 */
public final class IntakeSwitch {
  private static final AuditedSwitch.Tables TABLES =
      new AuditedSwitch.Tables("intake switch", "intake_switch", "intake_audit", "open", true);

  private final AuditedSwitch audited;

  /**
   * The switch's state.
   *
   * @param open whether new payments are accepted
   * @param reason why it was last changed (null before any change)
   * @param changedBy the operator who last changed it (null before any change)
   * @param changedAt when it was last changed (null before any change)
   */
  public record State(boolean open, String reason, String changedBy, Instant changedAt) {
    static State of(AuditedSwitch.Position p) {
      return new State(p.on(), p.reason(), p.changedBy(), p.changedAt());
    }
  }

  /** On the database of the pool's URL. */
  public IntakeSwitch(DataSource dataSource, Clock clock, Duration cacheFor) {
    this(dataSource, SqlDialects.forDataSource(dataSource), clock, cacheFor);
  }

  public IntakeSwitch(DataSource dataSource, SqlDialect dialect, Clock clock, Duration cacheFor) {
    this.audited = new AuditedSwitch(dataSource, dialect, clock, cacheFor, TABLES);
  }

  /** The state, read from the database when the cached one is older than the cache time. */
  public State current() {
    return State.of(audited.current());
  }

  /** The state as the database holds it now. */
  public State read() {
    return State.of(audited.read());
  }

  /** Sets the switch and writes its audit row in one transaction; this node sees it at once. */
  public State set(boolean open, String reason, String operator) {
    return State.of(audited.set(open, reason, operator));
  }
}
