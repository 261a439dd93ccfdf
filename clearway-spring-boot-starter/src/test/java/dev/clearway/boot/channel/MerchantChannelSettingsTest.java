package dev.clearway.boot.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.MerchantChannel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** {@code clearway.merchant-channels} read from a Spring environment and checked entry by entry. */
class MerchantChannelSettingsTest {
  private static final List<ChannelAccount> ACCOUNTS =
      List.of(
          new ChannelAccount(1, "stripe", "acct_1", "psp:s", Set.of("card"), 1, true),
          new ChannelAccount(
              3,
              "wechat",
              "1900000301",
              "psp:wx",
              Set.of("wechat_native", "wechat_jsapi"),
              1,
              true));

  private static List<MerchantChannel> read(Map<String, Object> properties) {
    StandardEnvironment env = new StandardEnvironment();
    env.getPropertySources().addFirst(new MapPropertySource("test", properties));
    return MerchantChannelSettings.read(env, ACCOUNTS);
  }

  private static Map<String, Object> entry(int i, Object... keyValues) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int k = 0; k < keyValues.length; k += 2) {
      out.put("clearway.merchant-channels[" + i + "]." + keyValues[k], keyValues[k + 1]);
    }
    return out;
  }

  @Test
  void entriesAreReadWithTheirSubMerchantMethodsAndLimits() {
    Map<String, Object> properties =
        new LinkedHashMap<>(
            entry(
                0,
                "merchant",
                "shop-7",
                "account",
                "3",
                "sub-merchant",
                "1900000777",
                "methods",
                "wechat_native, wechat_jsapi",
                "min-amount",
                "50",
                "max-amount",
                "5000"));
    properties.putAll(
        entry(1, "merchant", "shop-7", "account", "1", "methods", "card", "enabled", "false"));

    assertThat(read(properties))
        .containsExactly(
            new MerchantChannel(
                "shop-7",
                3,
                "1900000777",
                Set.of("wechat_native", "wechat_jsapi"),
                50L,
                5000L,
                true),
            new MerchantChannel("shop-7", 1, null, Set.of("card"), null, null, false));
    assertThat(read(Map.of())).isEmpty();
  }

  @Test
  void aBadEntryRefusesTheListNamingTheEntryAndTheField() {
    Map<String, String> cases = new LinkedHashMap<>();
    cases.put("account=9", "[0].account is not a configured channel account");
    cases.put("methods=card", "[0].methods names a method the account does not accept");
    cases.put("methods= , ", "[0].methods names no payment method");
    cases.put("merchant=no spaces", "[0].merchant must be 1 to 64");
    cases.put("sub-merchant=190000077719000007771900000777190", "[0].sub-merchant must be 1 to 32");
    cases.put("min-amount=0", "[0].min-amount must be positive");
    cases.put("max-amount=ten", "[0].max-amount must be a whole number");
    cases.put("min-amount=600", "[0].min-amount is above max-amount");
    cases.put("enabled=yes", "[0].enabled must be true or false");
    cases.put("submchid=1", "[0].submchid is not a setting");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      String[] kv = c.getKey().split("=", 2);
      Map<String, Object> properties =
          new LinkedHashMap<>(
              entry(
                  0,
                  "merchant",
                  "shop-7",
                  "account",
                  "3",
                  "methods",
                  "wechat_native",
                  "max-amount",
                  "500"));
      properties.put("clearway.merchant-channels[0]." + kv[0], kv[1]);
      assertThatThrownBy(() -> read(properties))
          .as(c.getKey())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("clearway.merchant-channels" + c.getValue());
    }
  }

  @Test
  void theSameMerchantTwiceOnOneAccountIsRefused() {
    Map<String, Object> properties =
        new LinkedHashMap<>(entry(0, "merchant", "m", "account", "1", "methods", "card"));
    properties.putAll(entry(1, "merchant", "m", "account", "1", "methods", "card"));
    assertThatThrownBy(() -> read(properties))
        .hasMessageStartingWith("clearway.merchant-channels[1].merchant names the same merchant");
  }

  @Test
  void relaxedKeyFormsNameTheSameSetting() {
    Map<String, Object> properties =
        new LinkedHashMap<>(
            entry(
                0,
                "merchant",
                "m",
                "account",
                "3",
                "methods",
                "wechat_native",
                "subMerchant",
                "1900000888"));
    assertThat(read(properties).get(0).subMerchant()).isEqualTo("1900000888");
  }
}
