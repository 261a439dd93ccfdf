package dev.clearway.store.channel;

import static dev.clearway.store.channel.ChannelStoreFixture.CREATOR;
import static dev.clearway.store.channel.ChannelStoreFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.MerchantChannel;
import dev.clearway.core.channel.domain.MethodChoice;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.port.AttemptStore.NewAttempt;
import dev.clearway.core.channel.port.AttemptStore.NewTask;
import dev.clearway.core.channel.spi.ClientAction;
import dev.clearway.core.channel.spi.PaymentParty;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.store.testing.TestDatabase;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Payment details on the real database: an attempt's party is stored and frozen, its first client
 * action is kept, merchant channel configurations and method choices read back as written.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcPaymentDetailsTest {

  private final ChannelStoreFixture db = new ChannelStoreFixture();
  private final JdbcPaymentDetails details =
      new JdbcPaymentDetails(db.dataSource, TestDatabase.get().dialect());

  @BeforeEach
  void clean() {
    db.clean();
    TestDatabase.get()
        .truncate("payment_attempt_action", "merchant_channel", "payment_method_choice");
  }

  private Attempt partnerAttempt(String trade) {
    db.stores.orders().openOrder(new PaymentOrder(trade, 500, "CNY", "wechat_jsapi", false), T0);
    return db.stores
        .attempts()
        .insertAttempt(
            new NewAttempt(
                trade,
                1,
                AttemptOrigin.INITIAL,
                null,
                "",
                new Attempt.Money(
                    500, "CNY", "wechat_jsapi", new PaymentParty("1900000777", "oPayer")),
                id -> new String[] {"k" + id, "0".repeat(64)}),
            new NewTask("RETRIEVE", T0.plusSeconds(10), "v1", CREATOR),
            T0)
        .orElseThrow();
  }

  @Test
  void theAttemptsPartyIsStoredAndFrozen() {
    Attempt a = partnerAttempt("t_party");
    Attempt read = db.stores.attempts().attempt(a.id()).orElseThrow();
    assertThat(read.money().party()).isEqualTo(new PaymentParty("1900000777", "oPayer"));
    assertThat(read.ref().party().subMerchant()).isEqualTo("1900000777");
    assertThatThrownBy(
            () ->
                db.execute(
                    "UPDATE payment_attempt SET sub_merchant = '1900000888', version = version + 1"
                        + " WHERE id = "
                        + a.id()))
        .hasMessageContaining("frozen");
  }

  @Test
  void theFirstClientActionOfAnAttemptIsKept() {
    Attempt a = partnerAttempt("t_action");
    details.saveAction(
        a.id(),
        new ClientAction(ClientAction.Kind.WECHAT_NATIVE, Map.of("code_url", "weixin://first")),
        T0);
    details.saveAction(
        a.id(),
        new ClientAction(ClientAction.Kind.WECHAT_NATIVE, Map.of("code_url", "weixin://second")),
        T0);
    ClientAction kept = details.action(a.id()).orElseThrow();
    assertThat(kept.kind()).isEqualTo(ClientAction.Kind.WECHAT_NATIVE);
    assertThat(kept.field("code_url")).isEqualTo("weixin://first");
    assertThat(details.action(a.id() + 1)).isEmpty();
  }

  @Test
  void merchantChannelsAndMethodChoicesReadBackAsWritten() {
    details.upsertMerchantChannel(
        new MerchantChannel("shop-a", 1, "1900000777", Set.of("wechat_native"), 50L, null, true));
    details.upsertMerchantChannel(
        new MerchantChannel(
            "shop-a", 1, "1900000777", Set.of("wechat_native", "wechat_jsapi"), 50L, 900L, true));
    assertThat(details.merchantChannels("shop-a"))
        .containsExactly(
            new MerchantChannel(
                "shop-a",
                1,
                "1900000777",
                Set.of("wechat_native", "wechat_jsapi"),
                50L,
                900L,
                true));
    assertThat(details.merchantChannels("shop-b")).isEmpty();

    GoalKey goal = new GoalKey("shop-a", 7, "checkout", "b1");
    details.saveChoice(goal, new MethodChoice("card", "pm_card_visa", null), T0);
    details.saveChoice(goal, new MethodChoice("wechat_jsapi", null, "oPayer"), T0);
    assertThat(details.choice(goal)).contains(new MethodChoice("wechat_jsapi", null, "oPayer"));
    assertThat(details.choice(new GoalKey("shop-a", 7, "checkout", "b2"))).isEmpty();
  }
}
