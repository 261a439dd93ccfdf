package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.boot.ChannelAccounts;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.port.AdapterRegistry;
import dev.clearway.core.reconciliation.engine.EngineRepairs;
import dev.clearway.psp.stripe.StripeAdapter;
import dev.clearway.psp.stripe.StripeConfig;
import dev.clearway.service.testkit.ServiceBoot;
import dev.clearway.sim.psp.stripe.StripeSimOptions;
import dev.clearway.sim.psp.stripe.StripeSimServer;
import dev.clearway.store.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The service paying through a channel account (a simulated Stripe-style PSP over HTTP): a run on
 * demand downloads the account's statement from its adapter (a report run), imports it and
 * reconciles the day; the repairs are wired to the channel layer.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ReconChannelHttpTest {
  private static final String OPERATOR = "ok_channel_recon_4b7e1d9a2c";
  private static StripeSimServer psp;
  private static ConfigurableApplicationContext context;
  private static String base;

  @BeforeAll
  static void start() {
    RunningApi.resetDatabase();
    ReconSeed.reset();
    TestDatabase.get().truncateChannelTables();
    psp = StripeSimServer.start(StripeSimOptions.defaults("sk_test_recon", "whsec_recon"));
    StripeAdapter stripe =
        new StripeAdapter(StripeConfig.of(psp.baseUrl(), "sk_test_recon", "whsec_recon"));
    AdapterRegistry adapters =
        id -> {
          if (id != 41) {
            throw new IllegalArgumentException("unknown channel account");
          }
          return stripe;
        };
    context =
        new ServiceBoot()
            .keys(
                "mk_channel_recon_8f2a6c1e",
                "olivia=" + OPERATOR,
                "aaron=ak_channel_recon_3d9b5f7a")
            .bean(
                "channelAccounts",
                new ChannelAccounts(
                    List.of(
                        new ChannelAccount(
                            41, "stripe", "acct_recon", "psp:stripe", Set.of("card"), 1, true))))
            .bean("adapters", adapters)
            .bean("paymentMethods", PaymentMethods.fixed("card", "pm_card_visa"))
            .start();
    base = ServiceBoot.base(context);
  }

  @AfterAll
  static void stop() {
    if (context != null) {
      context.close();
    }
    if (psp != null) {
      psp.close();
    }
  }

  @Test
  void aRunOnDemandDownloadsTheAccountsStatementFromItsAdapter() throws Exception {
    assertThat(context.getBean(EngineRepairs.class)).isNotNull();
    LocalDate yesterday = LocalDate.now(ZoneOffset.UTC).minusDays(1);
    HttpResponse<String> answer =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(base + "/ops/reconciliation/runs"))
                    .header("Authorization", "Bearer " + OPERATOR)
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"account\":\"acct_recon\",\"date\":\"" + yesterday + "\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonNode outcome = RunningApi.JSON.readTree(answer.body());
    assertThat(outcome.get("importError").isNull()).as(answer.body()).isTrue();
    assertThat(outcome.get("statement").get("status").asString()).isEqualTo("IMPORTED");
    assertThat(outcome.get("run").get("status").asString()).isEqualTo("DONE");
    assertThat(ReconSeed.text("SELECT format FROM statement_file WHERE account_ref = 'acct_recon'"))
        .isEqualTo("stripe-balance");
  }
}
