package dev.clearway.core.channel.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.decision.MethodAdmission.Refusal;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.MerchantChannel;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which accounts may carry a merchant's payment by a method, for an amount. */
class MethodAdmissionTest {
  private static final ChannelAccount DIRECT =
      new ChannelAccount(2, "wechat", "m2", "d2", Set.of("wechat_native", "wechat_jsapi"), 1, true);
  private static final ChannelAccount PARTNER =
      new ChannelAccount(3, "wechat", "sp", "d3", Set.of("wechat_native", "wechat_jsapi"), 5, true);
  private static final ChannelAccount CARD =
      new ChannelAccount(1, "stripe", "a1", "d1", Set.of("card"), 1, true);
  private static final List<ChannelAccount> ALL = List.of(CARD, DIRECT, PARTNER);

  @Test
  void withoutConfigurationsEveryAccountCarryingTheMethodIsACandidate() {
    MethodAdmission.Result r = MethodAdmission.evaluate(ALL, List.of(), "wechat_native", 100);
    assertThat(r.admitted()).isTrue();
    assertThat(r.candidates()).extracting(c -> c.account().id()).containsExactly(2L, 3L);
    assertThat(MethodAdmission.evaluate(ALL, List.of(), "wallet", 100).refusal())
        .isEqualTo(Refusal.METHOD_NOT_ENABLED);
  }

  @Test
  void configurationsRestrictToTheirAccountsMethodsAndLimitsAndNameTheSubMerchant() {
    List<MerchantChannel> configs =
        List.of(
            new MerchantChannel(
                "shop", 3, "1900000777", Set.of("wechat_native"), 50L, 5000L, true));
    MethodAdmission.Result ok = MethodAdmission.evaluate(ALL, configs, "wechat_native", 100);
    assertThat(ok.candidates()).extracting(c -> c.account().id()).containsExactly(3L);
    assertThat(ok.subMerchantOf(3)).contains("1900000777");
    assertThat(ok.subMerchantOf(2)).isEmpty();
    assertThat(MethodAdmission.evaluate(ALL, configs, "wechat_jsapi", 100).refusal())
        .isEqualTo(Refusal.METHOD_NOT_ENABLED);
    assertThat(MethodAdmission.evaluate(ALL, configs, "card", 100).refusal())
        .isEqualTo(Refusal.METHOD_NOT_ENABLED);
    assertThat(MethodAdmission.evaluate(ALL, configs, "wechat_native", 5001).refusal())
        .isEqualTo(Refusal.AMOUNT_OUT_OF_LIMITS);
    assertThat(MethodAdmission.evaluate(ALL, configs, "wechat_native", 49).refusal())
        .isEqualTo(Refusal.AMOUNT_OUT_OF_LIMITS);
    assertThat(MethodAdmission.evaluate(ALL, configs, "wechat_native", 5000).admitted()).isTrue();
  }

  @Test
  void aDisabledConfigurationOrAccountEnablesNothing() {
    List<MerchantChannel> off =
        List.of(new MerchantChannel("shop", 3, null, Set.of("wechat_native"), null, null, false));
    assertThat(MethodAdmission.evaluate(ALL, off, "wechat_native", 100).refusal())
        .isEqualTo(Refusal.METHOD_NOT_ENABLED);
    ChannelAccount disabled =
        new ChannelAccount(3, "wechat", "sp", "d3", Set.of("wechat_native"), 5, false);
    List<MerchantChannel> on =
        List.of(new MerchantChannel("shop", 3, null, Set.of("wechat_native"), null, null, true));
    assertThat(MethodAdmission.evaluate(List.of(disabled), on, "wechat_native", 100).refusal())
        .isEqualTo(Refusal.METHOD_NOT_ENABLED);
  }
}
