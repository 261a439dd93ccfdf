package dev.clearway.psp.engine;

import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.engine.StaticRecoveryPolicies;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.policy.RuleMatch;
import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.port.ChannelHealth;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.channel.spi.RecoveryCapabilities;
import dev.clearway.store.channel.JdbcChannelStores;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;

/** Three accounts (two in failure domain psp-a, one in psp-b) on the real test database. */
final class ChannelTestRig {

  static final RecoveryCapabilities ALL = new RecoveryCapabilities(true, true, true, true, true);

  final DataSource dataSource = TestDatabase.get().dataSource();
  final ChannelStores stores = JdbcChannelStores.create(dataSource);
  final ScriptedPsp a = new ScriptedPsp("stripe", ALL);
  final ScriptedPsp a2 = new ScriptedPsp("stripe", ALL);
  final ScriptedPsp b = new ScriptedPsp("stripe", ALL);
  final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T00:00:00Z"));
  final List<String> denied = new CopyOnWriteArrayList<>();
  final List<String> multiple = new CopyOnWriteArrayList<>();
  final List<String> woken = new CopyOnWriteArrayList<>();
  final List<String> leasesLost = new CopyOnWriteArrayList<>();
  volatile ChannelHealth health = ChannelHealth.ALWAYS;

  ChannelTestRig() {
    reset();
    stores.accounts().upsertAccount(account(1, "psp-a", 1));
    stores.accounts().upsertAccount(account(2, "psp-a", 2));
    stores.accounts().upsertAccount(account(3, "psp-b", 3));
  }

  static PolicyRule rule(List<RecoveryStrategy> strategies, Duration maxAge) {
    return new PolicyRule(
        new RuleMatch("stripe", "card", Operation.CREATE),
        strategies,
        List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)),
        maxAge,
        100,
        4);
  }

  ChannelContext context(PolicyRule rule) {
    return context(rule, a);
  }

  /** The same with {@code first} as account 1's PSP (one with other capabilities). */
  ChannelContext context(PolicyRule rule, ScriptedPsp first) {
    Map<Long, ScriptedPsp> adapters = Map.of(1L, first, 2L, a2, 3L, b);
    ChannelEvents events =
        new ChannelEvents() {
          @Override
          public void failoverDenied(String reason) {
            denied.add(reason);
          }

          @Override
          public void multipleSuccess(String tradeOrderNo) {
            multiple.add(tradeOrderNo);
          }

          @Override
          public void leaseLost(String table) {
            leasesLost.add(table);
          }
        };
    return new ChannelContext(
        stores,
        adapters::get,
        new ChannelHealth() {
          @Override
          public boolean admitsCreate(long id) {
            return health.admitsCreate(id);
          }

          @Override
          public void onCreate(long id, boolean healthy) {
            health.onCreate(id, healthy);
          }
        },
        new StaticRecoveryPolicies(new RecoveryPolicy("test-v1", List.of(rule))),
        new PacedRateLimiter(),
        events,
        clock,
        woken::add,
        Duration.ofSeconds(30));
  }

  private static ChannelAccount account(long id, String domain, int priority) {
    return new ChannelAccount(id, "stripe", "acct_" + id, domain, Set.of("card"), priority, true);
  }

  void reset() {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "TRUNCATE payment_attempt_history, provider_evidence, recovery_task,"
              + " attempt_compensation, channel_refund, channel_webhook_inbox, payment_attempt,"
              + " payment_order, channel_account, outbox_event CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  long count(String sql) {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        var rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  String text(String sql) {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        var rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A clock tests move by hand. */
  static final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant start) {
      this.now = start;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
