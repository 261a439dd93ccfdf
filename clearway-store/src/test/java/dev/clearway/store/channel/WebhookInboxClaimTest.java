package dev.clearway.store.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.port.WebhookInbox;
import dev.clearway.core.channel.port.WebhookInbox.Delivery;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The webhook inbox claims an event before any work: one claim per event id, a done event stays
 * done, a failed claim is forgotten, and an unfinished claim older than the stale bound is taken
 * over; event ids are per channel account.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class WebhookInboxClaimTest {
  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

  private static final Delivery EVT_1 = new Delivery(11, "stripe", "evt_1");
  private static final Delivery EVT_1_ELSEWHERE = new Delivery(12, "stripe", "evt_1");
  private static final Delivery EVT_2 = new Delivery(11, "stripe", "evt_2");

  private final WebhookInbox inbox =
      new JdbcWebhookInbox(TestDatabase.get().dataSource(), TestDatabase.get().dialect());

  @BeforeEach
  void clean() throws Exception {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute("TRUNCATE channel_webhook_inbox");
    }
  }

  @Test
  void aClaimedEventIsClaimedOnceUntilItGoesStaleAndADoneOneNeverAgain() {
    assertThat(inbox.claimDelivery(EVT_1, T0, T0.minusSeconds(120))).isTrue();
    assertThat(inbox.claimDelivery(EVT_1, T0.plusSeconds(1), T0.minusSeconds(119)))
        .as("in progress elsewhere")
        .isFalse();
    assertThat(inbox.claimDelivery(EVT_1_ELSEWHERE, T0, T0.minusSeconds(120)))
        .as("event ids are per account: another account's evt_1 is another event")
        .isTrue();

    Instant late = T0.plusSeconds(300);
    assertThat(inbox.claimDelivery(EVT_1, late, late.minusSeconds(120)))
        .as("the claiming process died: taken over")
        .isTrue();
    inbox.finishDelivery(EVT_1, late);

    Instant later = late.plusSeconds(3_600);
    assertThat(inbox.claimDelivery(EVT_1, later, later.minusSeconds(120))).isFalse();
    inbox.releaseDelivery(EVT_1); // a done event is never forgotten
    assertThat(inbox.claimDelivery(EVT_1, later, later.minusSeconds(120))).isFalse();
  }

  @Test
  void aReleasedClaimIsClaimedAgainAtOnce() {
    assertThat(inbox.claimDelivery(EVT_2, T0, T0.minusSeconds(120))).isTrue();
    inbox.releaseDelivery(EVT_2);
    assertThat(inbox.claimDelivery(EVT_2, T0.plusSeconds(1), T0.minusSeconds(119))).isTrue();
  }
}
