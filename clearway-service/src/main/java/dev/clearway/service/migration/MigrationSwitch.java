package dev.clearway.service.migration;

import dev.clearway.service.node.AuditedSwitch;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.SqlDialects;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * Whether new-payment intake of the migrated path is rolled back, for every node: the {@link
 * AuditedSwitch} of {@code migration_switch} (audited in {@code migration_audit}), not rolled back
 * until an operator rolls it back.
 */
public final class MigrationSwitch {
  private static final AuditedSwitch.Tables TABLES =
      new AuditedSwitch.Tables(
          "migration switch", "migration_switch", "migration_audit", "rolled_back", false);

  private final AuditedSwitch audited;

  /**
   * The switch's state.
   *
   * @param rolledBack whether new goals are kept on the legacy path
   * @param reason why it was last changed (null before any change)
   * @param changedBy the operator who last changed it (null before any change)
   * @param changedAt when it was last changed (null before any change)
   */
  public record State(boolean rolledBack, String reason, String changedBy, Instant changedAt) {
    static State of(AuditedSwitch.Position p) {
      return new State(p.on(), p.reason(), p.changedBy(), p.changedAt());
    }
  }

  /** On the database of the pool's URL. */
  public MigrationSwitch(DataSource dataSource, Clock clock, Duration cacheFor) {
    this(dataSource, SqlDialects.forDataSource(dataSource), clock, cacheFor);
  }

  public MigrationSwitch(
      DataSource dataSource, SqlDialect dialect, Clock clock, Duration cacheFor) {
    this.audited = new AuditedSwitch(dataSource, dialect, clock, cacheFor, TABLES);
  }

  /** Whether rolled back, from the cached state. */
  public boolean rolledBack() {
    return current().rolledBack();
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
  public State set(boolean rolledBack, String reason, String operator) {
    return State.of(audited.set(rolledBack, reason, operator));
  }
}
