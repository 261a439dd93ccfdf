package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * How a key list is read: {@code name=key} names only with a valid name and a long enough key,
 * otherwise the entry is the key; short keys, nameless people and repeated keys stop the start with
 * a message that names the role and position, never the key.
 */
class ApiKeysTest {
  private static final String BASE64_KEY = "c2hvcC1hLWJhc2U2NC1rZXktMQ==";
  private static final String OPERATOR = "alice=ok_alice_8d2e4f6a0b1c";
  private static final String APPROVER = "bob=ak_bob_1a2b3c4d5e6f7a";

  private static ApiKeys keys(String merchant, String operator, String approver) {
    Map<Role, String> configured = new EnumMap<>(Role.class);
    configured.put(Role.MERCHANT, merchant);
    configured.put(Role.OPERATOR, operator);
    configured.put(Role.APPROVER, approver);
    return new ApiKeys(configured);
  }

  private static InvalidKeyConfiguration refused(String merchant, String operator) {
    return catchThrowableOfType(
        InvalidKeyConfiguration.class, () -> keys(merchant, operator, APPROVER));
  }

  @Test
  void aBase64KeyEndingInPaddingIsReadWholeAndBelongsToTheDefaultMerchant() {
    ApiKeys keys = keys(BASE64_KEY, OPERATOR, APPROVER);

    assertThat(keys.authenticate(BASE64_KEY))
        .contains(new ApiKeys.Principal(Role.MERCHANT, ApiKeys.DEFAULT_MERCHANT));
    assertThat(keys.authenticate("=")).isEmpty();
    assertThat(keys.authenticate("c2hvcC1hLWJhc2U2NC1rZXktMQ")).isEmpty();
  }

  @Test
  void aNamedKeyNamesItsMerchantOrPersonNormalised() {
    ApiKeys keys =
        keys(
            " Shop-A = mk_shop_a_3f9a1c7e5b2d==, shop.b_2=" + BASE64_KEY,
            " Alice =ok_alice_8d2e4f6a0b1c",
            APPROVER);

    assertThat(keys.authenticate("mk_shop_a_3f9a1c7e5b2d=="))
        .contains(new ApiKeys.Principal(Role.MERCHANT, "shop-a"));
    assertThat(keys.authenticate(BASE64_KEY))
        .contains(new ApiKeys.Principal(Role.MERCHANT, "shop.b_2"));
    assertThat(keys.authenticate("ok_alice_8d2e4f6a0b1c"))
        .contains(new ApiKeys.Principal(Role.OPERATOR, "alice"));
    // The whole entry is not a key when it named someone.
    assertThat(keys.authenticate("alice=ok_alice_8d2e4f6a0b1c")).isEmpty();
  }

  @Test
  void anEntryWhoseNameIsNotAValidNameIsReadWholeAsTheKey() {
    String entry = "not a name=mk_0123456789abcdef";
    InvalidKeyConfiguration blank = refused(entry, OPERATOR);
    assertThat(blank.getMessage()).contains("visible ASCII");

    String slashed = "a/b=mk_0123456789abcdef";
    ApiKeys keys = keys(slashed, OPERATOR, APPROVER);
    assertThat(keys.authenticate(slashed))
        .contains(new ApiKeys.Principal(Role.MERCHANT, ApiKeys.DEFAULT_MERCHANT));
    assertThat(keys.authenticate("mk_0123456789abcdef")).isEmpty();
  }

  @Test
  void emptyEqualsAndShortKeysAreRefusedAtStartWithoutShowingThem() {
    for (String entry : new String[] {"=", "shop=", "short-key-15chr", "shop-a=short"}) {
      InvalidKeyConfiguration e = refused("mk_first_key_0123456789," + entry, OPERATOR);
      assertThat(e).as(entry).isNotNull();
      assertThat(e.role()).isEqualTo(Role.MERCHANT);
      assertThat(e.position()).isEqualTo(2);
      assertThat(e.getMessage())
          .contains("merchant keys (CLEARWAY_MERCHANT_KEYS), entry 2")
          .contains("at least 16 characters")
          .doesNotContain(entry.length() > 1 ? entry : "==");
    }
  }

  @Test
  void aPersonsNamedEntryWithAShortKeyIsRefusedForItsKey() {
    InvalidKeyConfiguration e = refused("mk_first_key_0123456789", "alice=ok_short_key1");
    assertThat(e.getMessage()).contains("at least 16 characters").doesNotContain("ok_short");
  }

  @Test
  void operatorAndApproverKeysMustNameTheirPerson() {
    InvalidKeyConfiguration e = refused("mk_first_key_0123456789", "ok_nameless_0123456789");
    assertThat(e.role()).isEqualTo(Role.OPERATOR);
    assertThat(e.getMessage())
        .contains("operator keys (CLEARWAY_OPERATOR_KEYS), entry 1")
        .contains("name its person")
        .doesNotContain("ok_nameless_0123456789");

    InvalidKeyConfiguration approver =
        catchThrowableOfType(
            InvalidKeyConfiguration.class,
            () -> keys("mk_first_key_0123456789", OPERATOR, BASE64_KEY));
    assertThat(approver.role()).isEqualTo(Role.APPROVER);
    assertThat(approver.getMessage()).doesNotContain("c2hvcC1h");
  }

  @Test
  void oneKeyForTwoRolesIsRefused() {
    InvalidKeyConfiguration e =
        catchThrowableOfType(
            InvalidKeyConfiguration.class,
            () -> keys("mk_first_key_0123456789", OPERATOR, "alice=ok_alice_8d2e4f6a0b1c"));
    assertThat(e.role()).isEqualTo(Role.APPROVER);
    assertThat(e.getMessage())
        .contains("already configured (operator keys, entry 1)")
        .doesNotContain("ok_alice");
  }

  @Test
  void rolesWithoutKeysGetADemoKeyExceptMetrics() {
    ApiKeys keys = keys("", "", "");

    assertThat(keys.generatedKeys()).containsOnlyKeys(Role.MERCHANT, Role.OPERATOR, Role.APPROVER);
    String operator = keys.generatedKeys().get(Role.OPERATOR).get(0);
    String approver = keys.generatedKeys().get(Role.APPROVER).get(0);
    String merchant = keys.generatedKeys().get(Role.MERCHANT).get(0);
    assertThat(keys.authenticate(operator).map(ApiKeys.Principal::id)).contains("demo-operator");
    assertThat(keys.authenticate(approver).map(ApiKeys.Principal::id)).contains("demo-approver");
    assertThat(keys.authenticate(merchant).map(ApiKeys.Principal::id))
        .contains(ApiKeys.DEFAULT_MERCHANT);
  }

  @Test
  void aMetricsKeyIsItsOwnRole() {
    Map<Role, String> configured = new EnumMap<>(Role.class);
    configured.put(Role.OPERATOR, OPERATOR);
    configured.put(Role.APPROVER, APPROVER);
    configured.put(Role.METRICS, "prometheus-scraper-0123456789");
    ApiKeys keys = new ApiKeys(configured);

    Optional<ApiKeys.Principal> p = keys.authenticate("prometheus-scraper-0123456789");
    assertThat(p).contains(new ApiKeys.Principal(Role.METRICS, ApiKeys.METRICS_ID));
    assertThat(ApiKeyFilter.refusal(Role.METRICS, "/actuator/prometheus")).isEmpty();
    assertThat(ApiKeyFilter.refusal(Role.OPERATOR, "/actuator/prometheus")).isEmpty();
    assertThat(ApiKeyFilter.refusal(Role.APPROVER, "/actuator/prometheus")).isPresent();
    assertThat(ApiKeyFilter.refusal(Role.MERCHANT, "/actuator/prometheus")).isPresent();
    assertThat(ApiKeyFilter.refusal(Role.METRICS, "/ops/review/flows")).isPresent();
    assertThat(ApiKeyFilter.refusal(Role.METRICS, "/v1/payments")).isPresent();
    assertThat(ApiKeyFilter.refusal(Role.METRICS, "/actuator/env")).isPresent();
  }
}
