package dev.clearway.boot;

import static dev.clearway.store.Sql.ts;

import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One engine node of a deployment: the instance id every lease token of this process starts with
 * ({@code clearway.instance-id}, else drawn once at start), and the release of this node's leases
 * when it stops. Every engine of the process names its tokens {@code <instanceId>/...} or {@code
 * <instanceId>-<engine>/...}; the engines depend on this bean, so Spring closes them first and this
 * bean's {@link #close()} then frees whatever leases their stopped workers still hold. Another node
 * claims those rows at once instead of waiting for the leases to expire. Releasing is safe even if
 * a step of this node were still running: its writes are fenced by its own token, which no row
 * names any more.
 */
public final class ClearwayNode implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ClearwayNode.class);

  /** The leased tables: the table, its due column (the lease expiry while a row is held). */
  private static final List<String[]> LEASED =
      List.of(
          new String[] {"pay_flow_state", "next_retry_time"},
          new String[] {"refund_order", "next_retry_time"},
          new String[] {"late_charge_check", "next_check_time"},
          new String[] {"late_charge_sweep", "lease_until"});

  /** The lease tokens' prefix length ({@code TokenMint} keeps at most this much of an owner). */
  private static final int OWNER_MAX = 48;

  private final String instanceId;
  private final DataSource dataSource;
  private final Clock clock;
  private final Set<String> owners = ConcurrentHashMap.newKeySet();

  public ClearwayNode(String instanceId, DataSource dataSource, Clock clock) {
    this.instanceId = instanceId;
    this.dataSource = dataSource;
    this.clock = clock;
    owners.add(instanceId);
  }

  /**
   * The lease owner of one more engine of this node, {@code <instanceId>-<engine>}, released too.
   */
  public String ownerFor(String engine) {
    String owner = instanceId + "-" + engine;
    owners.add(owner);
    return owner;
  }

  public String instanceId() {
    return instanceId;
  }

  /**
   * Frees every lease this node holds: owner cleared, the row due now, so the scanner of any node
   * picks it up on its next round.
   *
   * @return the rows released
   */
  public int releaseLeases() {
    int released = 0;
    try (Connection c = dataSource.getConnection()) {
      for (String[] table : LEASED) {
        released += release(c, table[0], table[1]);
      }
    } catch (SQLException e) {
      throw new StoreException("release leases of " + instanceId, e);
    }
    return released;
  }

  private int release(Connection c, String table, String due) throws SQLException {
    String sql =
        "UPDATE "
            + table
            + " SET lease_owner = NULL, "
            + due
            + " = LEAST("
            + due
            + ", ?) WHERE lease_owner LIKE ? ESCAPE '!'";
    int released = 0;
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (String owner : owners) {
        String prefix = owner.strip();
        prefix = prefix.substring(0, Math.min(OWNER_MAX, prefix.length()));
        ps.setObject(1, ts(clock.instant()));
        ps.setString(2, prefix.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "/%");
        released += ps.executeUpdate();
      }
    }
    return released;
  }

  /** Releases this node's leases; a failure is logged (the leases then simply expire). */
  @Override
  public void close() {
    try {
      int released = releaseLeases();
      log.info("node {} stopped; released {} leases", instanceId, released);
    } catch (RuntimeException e) {
      log.warn("node {} could not release its leases; they expire on their own", instanceId, e);
    }
  }
}
