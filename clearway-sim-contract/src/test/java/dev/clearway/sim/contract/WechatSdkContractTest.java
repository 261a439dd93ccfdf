package dev.clearway.sim.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.exception.ValidationException;
import com.wechat.pay.java.core.http.DefaultHttpClientBuilder;
import com.wechat.pay.java.core.http.HttpClient;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.core.notification.RequestParam;
import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;
import com.wechat.pay.java.service.payments.nativepay.model.Amount;
import com.wechat.pay.java.service.payments.nativepay.model.PrepayRequest;
import com.wechat.pay.java.service.payments.nativepay.model.PrepayResponse;
import com.wechat.pay.java.service.payments.nativepay.model.QueryOrderByOutTradeNoRequest;
import com.wechat.pay.java.service.refund.RefundService;
import com.wechat.pay.java.service.refund.model.AmountReq;
import com.wechat.pay.java.service.refund.model.CreateRequest;
import com.wechat.pay.java.service.refund.model.QueryByOutRefundNoRequest;
import com.wechat.pay.java.service.refund.model.Refund;
import com.wechat.pay.java.service.refund.model.Status;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.wechat.WechatSimKeys;
import dev.clearway.sim.psp.wechat.WechatSimOptions;
import dev.clearway.sim.psp.wechat.WechatSimServer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * WeChat Pay's official Java SDK, its response signature check on and the simulator's platform
 * public key configured, pays and refunds a Native order against the simulated merchant. The SDK
 * looks response headers up by their exact names, so this also holds the simulator to the real
 * spelling.
 */
class WechatSdkContractTest {
  private static final String MCHID = "1900000109";
  private static final String APPID = "wxd678efh567hg6787";
  private static final String PUBLIC_KEY_ID = "PUB_KEY_ID_0119000001092025120100000000000001";
  private static final String API_V3_KEY = "0123456789abcdef0123456789ABCDEF";
  private static final KeyPair MERCHANT = rsa();
  private static final KeyPair PLATFORM = rsa();
  private static WechatSimServer sim;

  @BeforeAll
  static void start() {
    WechatSimKeys keys =
        new WechatSimKeys(
            MCHID,
            MERCHANT.getPublic(),
            PLATFORM.getPrivate(),
            PUBLIC_KEY_ID,
            API_V3_KEY.getBytes(StandardCharsets.US_ASCII));
    sim =
        WechatSimServer.start(
            WechatSimOptions.defaults(keys).withPayerDelay(Duration.ofMillis(100)),
            PspFaults.none());
    sim.webhookTarget(null);
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  @Test
  void theSdkPaysQueriesAndRefundsANativeOrderWithItsSignatureCheckOn() {
    HttpClient http = sdkClient(PLATFORM.getPublic());
    NativePayService pay = new NativePayService.Builder().httpClient(http).build();
    RefundService refunds = new RefundService.Builder().httpClient(http).build();
    String tradeNo = number("T");

    PrepayResponse prepay = pay.prepay(prepayRequest(tradeNo, 100));
    assertThat(prepay.getCodeUrl()).startsWith("weixin://");

    Transaction paid =
        eventually(
            () -> pay.queryOrderByOutTradeNo(queryRequest(tradeNo)),
            t -> t.getTradeState() == Transaction.TradeStateEnum.SUCCESS);
    assertThat(paid.getOutTradeNo()).isEqualTo(tradeNo);
    assertThat(paid.getMchid()).isEqualTo(MCHID);
    assertThat(paid.getAmount().getTotal()).isEqualTo(100);
    assertThat(paid.getTransactionId()).isNotBlank();

    String refundNo = number("R");
    Refund created = refunds.create(refundRequest(tradeNo, refundNo, 40, 100));
    assertThat(created.getOutRefundNo()).isEqualTo(refundNo);
    assertThat(created.getStatus()).isIn(Status.SUCCESS, Status.PROCESSING);

    QueryByOutRefundNoRequest query = new QueryByOutRefundNoRequest();
    query.setOutRefundNo(refundNo);
    Refund queried =
        eventually(() -> refunds.queryByOutRefundNo(query), r -> r.getStatus() == Status.SUCCESS);
    assertThat(queried.getOutTradeNo()).isEqualTo(tradeNo);
    assertThat(queried.getAmount().getRefund()).isEqualTo(40L);
  }

  @Test
  void theSdkVerifiesAndDecryptsThePaymentNotificationByItsExactHeaderNames() throws Exception {
    HttpClient http = sdkClient(PLATFORM.getPublic());
    NativePayService pay = new NativePayService.Builder().httpClient(http).build();
    String tradeNo = number("N");
    try (RawReceiver receiver = new RawReceiver()) {
      sim.webhookTarget(receiver.url());
      pay.prepay(prepayRequest(tradeNo, 300));

      RawReceiver.Received notification = receiver.next(Duration.ofSeconds(10));
      RequestParam param =
          new RequestParam.Builder()
              .serialNumber(notification.exactly("Wechatpay-Serial").orElseThrow())
              .nonce(notification.exactly("Wechatpay-Nonce").orElseThrow())
              .signature(notification.exactly("Wechatpay-Signature").orElseThrow())
              .timestamp(notification.exactly("Wechatpay-Timestamp").orElseThrow())
              .body(notification.body())
              .build();
      Transaction paid =
          new NotificationParser(config(PLATFORM.getPublic())).parse(param, Transaction.class);

      assertThat(paid.getOutTradeNo()).isEqualTo(tradeNo);
      assertThat(paid.getTradeState()).isEqualTo(Transaction.TradeStateEnum.SUCCESS);
      assertThat(paid.getAmount().getTotal()).isEqualTo(300);
    } finally {
      sim.webhookTarget(null);
    }
  }

  @Test
  void theSdkRefusesAnAnswerSignedByAnotherPlatformKey() {
    NativePayService pay =
        new NativePayService.Builder().httpClient(sdkClient(rsa().getPublic())).build();

    assertThatThrownBy(() -> pay.prepay(prepayRequest(number("T"), 100)))
        .isInstanceOf(ValidationException.class);
  }

  @Test
  void responseHeadersCarryTheirDocumentedSpelling() throws Exception {
    List<String> lines =
        RawHttp.headerLines(
            sim.baseUrl(), "GET", "/v3/pay/transactions/out-trade-no/T123456?mchid=" + MCHID);

    assertThat(RawHttp.headerNames(lines))
        .contains(
            "Request-ID",
            "Wechatpay-Timestamp",
            "Wechatpay-Nonce",
            "Wechatpay-Signature",
            "Wechatpay-Serial");
    assertThat(lines).contains("Wechatpay-Serial: " + PUBLIC_KEY_ID);
  }

  private static HttpClient sdkClient(PublicKey platformKey) {
    return new DefaultHttpClientBuilder()
        .config(config(platformKey))
        .okHttpClient(toSimulator(sim.baseUrl()))
        .build();
  }

  private static RSAPublicKeyConfig config(PublicKey platformKey) {
    return new RSAPublicKeyConfig.Builder()
        .merchantId(MCHID)
        .privateKey(MERCHANT.getPrivate())
        .merchantSerialNumber("5157F09EFDC096DE15EBE81A47057A7232F1B8E1")
        .publicKey(platformKey)
        .publicKeyId(PUBLIC_KEY_ID)
        .apiV3Key(API_V3_KEY)
        .build();
  }

  /** The SDK addresses the real API host; every request goes to the simulator instead. */
  private static OkHttpClient toSimulator(URI base) {
    return new OkHttpClient.Builder()
        .addInterceptor(
            chain -> {
              Request request = chain.request();
              HttpUrl url =
                  request
                      .url()
                      .newBuilder()
                      .scheme("http")
                      .host(base.getHost())
                      .port(base.getPort())
                      .build();
              return chain.proceed(request.newBuilder().url(url).build());
            })
        .build();
  }

  private static PrepayRequest prepayRequest(String tradeNo, int total) {
    PrepayRequest request = new PrepayRequest();
    request.setAppid(APPID);
    request.setMchid(MCHID);
    request.setDescription("coffee");
    request.setOutTradeNo(tradeNo);
    request.setNotifyUrl("https://merchant.example/wechat/notify");
    Amount amount = new Amount();
    amount.setTotal(total);
    amount.setCurrency("CNY");
    request.setAmount(amount);
    return request;
  }

  private static QueryOrderByOutTradeNoRequest queryRequest(String tradeNo) {
    QueryOrderByOutTradeNoRequest request = new QueryOrderByOutTradeNoRequest();
    request.setMchid(MCHID);
    request.setOutTradeNo(tradeNo);
    return request;
  }

  private static CreateRequest refundRequest(
      String tradeNo, String refundNo, long refund, long total) {
    CreateRequest request = new CreateRequest();
    request.setOutTradeNo(tradeNo);
    request.setOutRefundNo(refundNo);
    AmountReq amount = new AmountReq();
    amount.setRefund(refund);
    amount.setTotal(total);
    amount.setCurrency("CNY");
    request.setAmount(amount);
    return request;
  }

  private static <T> T eventually(Supplier<T> call, java.util.function.Predicate<T> done) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    T last = call.get();
    while (!done.test(last) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      last = call.get();
    }
    assertThat(done.test(last)).as("reached in time: %s", last).isTrue();
    return last;
  }

  private static String number(String prefix) {
    return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
  }

  private static KeyPair rsa() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
