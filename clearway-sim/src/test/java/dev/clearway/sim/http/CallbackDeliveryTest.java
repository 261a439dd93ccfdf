package dev.clearway.sim.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.signature.WebhookSignature;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.WalletFault;
import dev.clearway.sim.http.CallbackReceiver.Delivery;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Signed callbacks from the simulated wallet to a real HTTP receiver. */
class CallbackDeliveryTest {
  private static final String SECRET = "whsec_sim_test";
  private static final Duration WAIT = Duration.ofSeconds(5);

  private final FaultPlan plan = new FaultPlan(11, 0.6);
  private final SimWallet wallet = new SimWallet(plan, Clock.systemUTC());
  private final HttpClient http = HttpClient.newHttpClient();
  private CallbackReceiver receiver;
  private SimWalletServer server;

  private void start(IntUnaryOperator statusOfNth, int maxAttempts) {
    receiver = new CallbackReceiver(SECRET, statusOfNth);
    SimWalletServer.Callbacks callbacks =
        SimWalletServer.Callbacks.to(receiver.url(), SECRET)
            .withMaxAttempts(maxAttempts)
            .withFirstBackoff(Duration.ofMillis(30));
    server =
        SimWalletServer.start(
            wallet,
            plan,
            SimWalletServer.Options.defaults()
                .withLostResponseHold(Duration.ZERO)
                .withCallbacks(callbacks));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    if (receiver != null) {
      receiver.close();
    }
  }

  @Test
  void everyDeliveredEventVerifiesAndDuplicatesArriveWithTheSameId() throws Exception {
    start(n -> 200, 5);
    String dup = tradeWith(WalletFault.NONE, CallbackFault.DUPLICATE, "t_dup_");
    String plain = tradeWith(WalletFault.NONE, CallbackFault.NONE, "t_plain_");
    String rejected = tradeWith(WalletFault.PAY_REJECTED, CallbackFault.NONE, "t_rej_");
    String refund =
        FaultSearch.first(
            "r_" + plain + "_",
            no ->
                wallet.refundFault(no) == WalletFault.NONE
                    && CallbackFault.pick(plan, WireProtocol.REFUND_SUCCEEDED, no)
                        == CallbackFault.NONE);

    assertThat(status(post("/v1/charges", charge(dup)))).isEqualTo("SUCCEEDED");
    assertThat(status(post("/v1/charges", charge(plain)))).isEqualTo("SUCCEEDED");
    assertThat(status(post("/v1/charges", charge(rejected)))).isEqualTo("FAILED");
    assertThat(status(post("/v1/refunds", refund(refund, plain)))).isEqualTo("SUCCEEDED");
    // Asking again changes nothing: one event per final state.
    assertThat(status(post("/v1/charges", charge(dup)))).isEqualTo("SUCCEEDED");
    assertThat(status(get("/v1/charges/" + rejected))).isEqualTo("FAILED");

    await(() -> receiver.deliveries().size() >= 5);
    Thread.sleep(300); // nothing more may come

    List<Delivery> got = receiver.deliveries();
    assertThat(got).hasSize(5).allSatisfy(d -> assertThat(d.verdict()).isEqualTo(valid()));
    assertThat(got).filteredOn(d -> dup.equals(d.event().get("tradeOrderNo"))).hasSize(2);
    List<Delivery> dups =
        got.stream().filter(d -> dup.equals(d.event().get("tradeOrderNo"))).toList();
    assertThat(dups.get(0).id()).isEqualTo(dups.get(1).id());
    assertThat(dups.get(0).raw()).isEqualTo(dups.get(1).raw());
    assertThat(got.stream().map(Delivery::id).distinct()).hasSize(4);
    assertThat(event(got, plain, "charge.succeeded")).containsEntry("refundOrderNo", null);
    assertThat(event(got, rejected, "charge.failed")).containsEntry("refundOrderNo", null);
    assertThat(event(got, plain, "refund.succeeded")).containsEntry("refundOrderNo", refund);
    assertThat(got).allSatisfy(d -> assertThat(d.id()).matches("evt_\\d+"));
    // The receiver's verification is real: another secret does not verify.
    Delivery one = got.get(0);
    assertThat(WebhookSignature.verify(one.header(), one.raw(), "another", Instant.now()))
        .isEqualTo(WebhookSignature.Result.BAD_SIGNATURE);
    assertThat(server.callbackStats()).isEqualTo(new SimWalletServer.CallbackStats(4, 5, 5, 5, 0));
  }

  @Test
  void outOfOrderEventIsOvertakenByTheNextOne() throws Exception {
    start(n -> 200, 5);
    String late = tradeWith(WalletFault.NONE, CallbackFault.OUT_OF_ORDER, "t_late_");
    String next = tradeWith(WalletFault.NONE, CallbackFault.NONE, "t_next_");

    post("/v1/charges", charge(late));
    Thread.sleep(120); // the watcher has seen the first charge and held its event back
    post("/v1/charges", charge(next));

    await(() -> receiver.deliveries().size() >= 2);
    assertThat(receiver.deliveries())
        .extracting(d -> d.event().get("tradeOrderNo"))
        .containsExactly(next, late);
  }

  @Test
  void delayedEventArrivesLate() throws Exception {
    start(n -> 200, 5);
    String slow =
        FaultSearch.first(
            "t_slow_",
            no ->
                wallet.payFault(no) == WalletFault.NONE
                    && CallbackFault.pick(plan, WireProtocol.CHARGE_SUCCEEDED, no)
                        == CallbackFault.DELAYED
                    && plan.duration(
                                "callback.delay",
                                WireProtocol.CHARGE_SUCCEEDED + ":" + no,
                                Duration.ofMillis(200),
                                Duration.ofMillis(2_000))
                            .toMillis()
                        < 600);
    long start = System.nanoTime();

    post("/v1/charges", charge(slow));

    await(() -> receiver.deliveries().size() >= 1);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(Duration.ofMillis(200));
    assertThat(receiver.deliveries().get(0).verdict()).isEqualTo(valid());
  }

  @Test
  void receiverAnswering500IsRetriedUntilItAccepts() throws Exception {
    start(n -> n <= 2 ? 500 : 204, 5);
    String no = tradeWith(WalletFault.NONE, CallbackFault.NONE, "t_retry_");

    post("/v1/charges", charge(no));

    await(() -> server.callbackStats().delivered() == 1);
    List<Delivery> got = receiver.deliveries();
    assertThat(got).hasSize(3).allSatisfy(d -> assertThat(d.verdict()).isEqualTo(valid()));
    assertThat(got.stream().map(Delivery::id).distinct()).hasSize(1);
    assertThat(server.callbackStats()).isEqualTo(new SimWalletServer.CallbackStats(1, 1, 3, 1, 0));
  }

  @Test
  void aTargetThatIsDownPassesTheDeliveryToTheNextTarget() throws Exception {
    receiver = new CallbackReceiver(SECRET, n -> 200);
    URI down = URI.create("http://127.0.0.1:" + closedPort() + "/hooks/sim");
    server =
        SimWalletServer.start(
            wallet,
            plan,
            SimWalletServer.Options.defaults()
                .withLostResponseHold(Duration.ZERO)
                .withCallbacks(
                    SimWalletServer.Callbacks.toAny(List.of(down, receiver.url()), SECRET)
                        .withMaxAttempts(3)
                        .withFirstBackoff(Duration.ofMillis(30))));
    String no = tradeWith(WalletFault.NONE, CallbackFault.NONE, "t_failover_");

    post("/v1/charges", charge(no));

    await(() -> server.callbackStats().delivered() == 1);
    assertThat(receiver.deliveries())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.verdict()).isEqualTo(valid());
              assertThat(d.event()).containsEntry("tradeOrderNo", no);
            });
    // The first attempt went to the closed port, the second to the live target.
    assertThat(server.callbackStats()).isEqualTo(new SimWalletServer.CallbackStats(1, 1, 2, 1, 0));
  }

  @Test
  void oneTargetKeepsWorkingThroughTheSingleUrlFactory() {
    URI url = URI.create("http://127.0.0.1:1/hooks");
    SimWalletServer.Callbacks callbacks = SimWalletServer.Callbacks.to(url, SECRET);
    assertThat(callbacks.urls()).containsExactly(url);
    assertThat(callbacks.url()).isEqualTo(url);
    assertThat(callbacks.toString()).doesNotContain(SECRET);
    assertThatThrownBy(() -> SimWalletServer.Callbacks.toAny(List.of(), SECRET))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void retriesAreBounded() throws Exception {
    start(n -> 503, 3);
    String no = tradeWith(WalletFault.NONE, CallbackFault.NONE, "t_down_");

    post("/v1/charges", charge(no));

    await(() -> server.callbackStats().abandoned() == 1);
    Thread.sleep(300);
    assertThat(receiver.deliveries()).hasSize(3);
    assertThat(server.callbackStats()).isEqualTo(new SimWalletServer.CallbackStats(1, 1, 3, 0, 1));
  }

  @Test
  void chargesTheCallerNeverHeardOfAreAnnounced() throws Exception {
    start(n -> 200, 5);
    String crash = tradeWith(WalletFault.PAY_CRASH_AFTER_CHARGE, CallbackFault.NONE, "t_crash_");
    String processing =
        FaultSearch.first(
            "t_proc_",
            no ->
                wallet.payFault(no) == WalletFault.PAY_PROCESSING
                    && CallbackFault.pick(plan, WireProtocol.CHARGE_SUCCEEDED, no)
                        == CallbackFault.NONE
                    && plan.duration(
                                "wallet.processing",
                                no,
                                Duration.ofMillis(50),
                                Duration.ofMillis(1_500))
                            .toMillis()
                        < 400);

    assertThatThrownBy(() -> post("/v1/charges", charge(crash))).isInstanceOf(IOException.class);
    assertThat(status(post("/v1/charges", charge(processing)))).isEqualTo("PROCESSING");

    // No query: the wallet's own background settles the charge and announces it.
    await(() -> receiver.deliveries().size() >= 2);
    assertThat(receiver.deliveries())
        .extracting(d -> d.event().get("tradeOrderNo"))
        .containsExactlyInAnyOrder(crash, processing);
    assertThat(receiver.deliveries())
        .allSatisfy(
            d -> {
              assertThat(d.type()).isEqualTo("charge.succeeded");
              assertThat(d.verdict()).isEqualTo(valid());
            });
  }

  // ---- helpers ---------------------------------------------------------------------------------

  /** A port nothing listens on: connecting to it is refused. */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static WebhookSignature.Result valid() {
    return WebhookSignature.Result.VALID;
  }

  private String tradeWith(WalletFault pay, CallbackFault callback, String prefix) {
    return FaultSearch.trade(wallet, plan, prefix, pay, callback);
  }

  private static Map<String, Object> event(List<Delivery> got, String trade, String type) {
    return got.stream()
        .filter(d -> trade.equals(d.event().get("tradeOrderNo")) && type.equals(d.type()))
        .findFirst()
        .orElseThrow()
        .event();
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not reached within " + WAIT);
      }
      Thread.sleep(10);
    }
  }

  private static String charge(String no) {
    return "{\"tradeOrderNo\":\"" + no + "\",\"userId\":7,\"amount\":250,\"currency\":\"EUR\"}";
  }

  private static String refund(String refundNo, String tradeNo) {
    return "{\"refundOrderNo\":\""
        + refundNo
        + "\",\"tradeOrderNo\":\""
        + tradeNo
        + "\",\"amount\":250,\"currency\":\"EUR\"}";
  }

  private static String status(HttpResponse<String> r) {
    return (String) WireJson.parse(r.body()).get("status");
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .timeout(Duration.ofSeconds(5))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .timeout(Duration.ofSeconds(5))
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
