package dev.clearway.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.store.Sql;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A stopping node frees exactly its own engines' leases, on the real database. */
class ClearwayNodeTest {

  private final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
  private final Sql sql = new Sql(TestDatabase.get().dataSource());

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  @Test
  void releasesItsOwnEnginesLeasesAndNoOtherNodesWhoseIdStartsWithItsOwn() {
    long own = flowHeldBy("a/n1/1", 1);
    long ownRefundEngine = flowHeldBy("a-refund/n2/1", 2);
    long otherNode = flowHeldBy("a-b/n3/1", 3);
    long otherNodesRefundEngine = flowHeldBy("a-b-refund/n4/1", 4);
    ClearwayNode node = new ClearwayNode("a", TestDatabase.get().dataSource(), Clock.systemUTC());
    assertThat(node.ownerFor("refund")).isEqualTo("a-refund");

    assertThat(node.releaseLeases()).isEqualTo(2);

    assertThat(owner(own)).isNull();
    assertThat(owner(ownRefundEngine)).isNull();
    assertThat(owner(otherNode)).isEqualTo("a-b/n3/1");
    assertThat(owner(otherNodesRefundEngine)).isEqualTo("a-b-refund/n4/1");
  }

  private long flowHeldBy(String token, long user) {
    GoalKey goal = GoalKey.ofDefaultMerchant(user, "renew", "node-test-" + user);
    NewPayment payment = new NewPayment(goal, 1_000L, "CNY", now.plus(Duration.ofHours(1)));
    PayFlow flow =
        TestDatabase.get()
            .store()
            .createAttempt(payment, new Lease(token, now.plusSeconds(30)), now)
            .flow();
    return flow.id();
  }

  private String owner(long flowId) {
    List<String> owners =
        sql.query(
            "SELECT lease_owner FROM pay_flow WHERE id = ?",
            ps -> ps.setLong(1, flowId),
            rs -> rs.getString(1));
    return owners.get(0);
  }
}
