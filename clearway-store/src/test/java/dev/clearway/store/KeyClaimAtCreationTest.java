package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.count;
import static dev.clearway.store.StoreFixtures.lease;
import static dev.clearway.store.StoreFixtures.newGoal;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.payment;
import static dev.clearway.store.StoreFixtures.store;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.flow.port.KeyClaim;
import dev.clearway.core.flow.port.KeyTakenException;
import dev.clearway.store.JdbcIdempotencyStore.Claim;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An Idempotency-Key claimed in the commit that creates its attempt: the key row and the attempt
 * are written together or not at all, against a real PostgreSQL.
 */
class KeyClaimAtCreationTest {
  private static final String H1 = "a".repeat(64);
  private static final String H2 = "b".repeat(64);

  private final JdbcIdempotencyStore keys =
      new JdbcIdempotencyStore(TestDatabase.get().dataSource(), TestDatabase.get().dialect());

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  @Test
  void theKeyIsWrittenInFlightAndBoundToTheNewAttemptInTheSameStatement() throws Exception {
    Instant now = now();
    GoalKey goal = newGoal();
    assertThat(store().claimsKeysAtCreation()).isTrue();
    assertThat(keys.look("m", "claim-k1", H1, now, now.plusSeconds(6))).isEqualTo(new Claim.Free());

    CreateResult created =
        store()
            .createClaiming(
                payment(goal, now),
                lease("creator/1", now),
                now,
                true,
                new KeyClaim("m", "claim-k1", H1, now.plusSeconds(6)));

    assertThat(created.created()).isTrue();
    assertThat(created.flow().status()).isEqualTo(FlowStatus.PAYING);
    assertThat(
            count(
                "SELECT count(*) FROM idempotency_key WHERE merchant_id = 'm' AND idem_key = 'claim-k1'"
                    + " AND state = 'IN_FLIGHT' AND flow_id = ?",
                created.flow().id()))
        .isEqualTo(1);
    assertThat(keys.look("m", "claim-k1", H1, now.plusSeconds(1), now.plusSeconds(7)))
        .isEqualTo(new Claim.InUse());
    assertThat(keys.look("m", "claim-k1", H2, now.plusSeconds(1), now.plusSeconds(7)))
        .isEqualTo(new Claim.Reused());
    keys.complete("m", "claim-k1", created.flow().id(), now.plusSeconds(1));
    assertThat(keys.look("m", "claim-k1", H1, now.plusSeconds(2), now.plusSeconds(8)))
        .isEqualTo(new Claim.Done(created.flow().id()));
  }

  @Test
  void aKeyAlreadyClaimedWritesNoAttemptOfAnotherGoal() throws Exception {
    Instant now = now();
    store()
        .createClaiming(
            payment(newGoal(), now),
            lease("creator/1", now),
            now,
            true,
            new KeyClaim("m", "claim-k2", H1, now.plusSeconds(6)));
    long flows = count("SELECT count(*) FROM pay_flow");
    long history = count("SELECT count(*) FROM pay_flow_history");

    assertThatThrownBy(
            () ->
                store()
                    .createClaiming(
                        payment(newGoal(), now),
                        lease("creator/2", now),
                        now,
                        true,
                        new KeyClaim("m", "claim-k2", H2, now.plusSeconds(6))))
        .isInstanceOf(KeyTakenException.class);

    assertThat(count("SELECT count(*) FROM pay_flow")).isEqualTo(flows);
    assertThat(count("SELECT count(*) FROM pay_flow_history")).isEqualTo(history);
    assertThat(count("SELECT count(*) FROM idempotency_key WHERE idem_key = 'claim-k2'"))
        .isEqualTo(1);
  }

  @Test
  void aLiveAttemptOfTheGoalIsAnsweredAndTheKeyBoundToIt() throws Exception {
    Instant now = now();
    GoalKey goal = newGoal();
    long first = store().createStarted(payment(goal, now), lease("a", now), now).flow().id();

    CreateResult again =
        store()
            .createClaiming(
                payment(goal, now),
                lease("b", now),
                now,
                true,
                new KeyClaim("m", "claim-k3", H1, now.plusSeconds(6)));

    assertThat(again.created()).isFalse();
    assertThat(again.flow().id()).isEqualTo(first);
    assertThat(
            count(
                "SELECT count(*) FROM idempotency_key WHERE idem_key = 'claim-k3' AND flow_id = ?",
                first))
        .isEqualTo(1);
  }
}
