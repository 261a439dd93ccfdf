package dev.clearway.sim.psp.wechat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.sim.psp.PspFaults;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The simulated WeChat Pay API verifies a request over the bytes received and signs its answer over
 * the bytes it sends, whatever their spacing, escapes or field order; it reads amounts strictly and
 * refuses a duplicated field. Signing and verifying here is the test's own code, as a merchant's
 * would be.
 */
class WechatStrictRequestTest {
  private static final String MCHID = "1900000109";
  private static final KeyPair MERCHANT = rsa();
  private static final KeyPair PLATFORM = rsa();
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static WechatSimServer sim;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    WechatSimKeys keys =
        new WechatSimKeys(
            MCHID,
            MERCHANT.getPublic(),
            PLATFORM.getPrivate(),
            "PLATFORM-SERIAL-1",
            "0123456789abcdef0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII));
    sim =
        WechatSimServer.start(
            WechatSimOptions.defaults(keys).withPayer(PayerChoice.always(Payer.NEVER)),
            PspFaults.none());
    sim.webhookTarget(null);
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  @Test
  void aRequestWithUnusualSpacingEscapesAndFieldOrderVerifiesOverTheBytesReceived()
      throws Exception {
    String no = number();
    String body =
        "\n{ \"amount\" : { \"currency\":\"CNY\" ,\n \"total\" :  100 },\r\n"
            + "\t\"notify_url\":\"https:\\/\\/merchant.example\\/notify\",  \"out_trade_no\" : \""
            + no
            + "\",\"description\" : \"\\u5496\\u5561\",\"appid\":\"wxd678efh567hg6787\","
            + " \"mchid\" : \""
            + MCHID
            + "\"}\n";

    HttpResponse<byte[]> r = send("POST", WechatProtocol.NATIVE, body, body);

    assertThat(r.statusCode()).as(text(r)).isEqualTo(200);
    assertThat(verifiedAnswer(r)).containsKey("code_url");
    Map<String, Object> order = verifiedAnswer(queryByNo(no));
    assertThat(order)
        .containsEntry("out_trade_no", no)
        .containsEntry("trade_state", WechatProtocol.NOTPAY);
    assertThat(order.get("amount")).isEqualTo(Map.of("total", 100, "currency", "CNY"));
  }

  @Test
  void aSignatureOverAnotherSerialisationOfTheSameJsonIsRefused() throws Exception {
    String no = number();
    String sent = order(no, "100").replace(",", " , ");
    String signed = order(no, "100");

    HttpResponse<byte[]> r = send("POST", WechatProtocol.NATIVE, sent, signed);

    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(verifiedAnswer(r)).containsEntry("code", WechatProtocol.SIGN_ERROR);
    assertThat(sim.ledger()).noneMatch(c -> c.idempotencyKey().equals(no));
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"100\"", "100.0", "1e2", "1.0E2", "100.5", "true", "null"})
  void aTotalThatIsNotAnIntegralNumberIsAParamError(String total) throws Exception {
    String no = number();
    String body = order(no, total);

    HttpResponse<byte[]> r = send("POST", WechatProtocol.NATIVE, body, body);

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(verifiedAnswer(r))
        .containsEntry("code", WechatProtocol.PARAM_ERROR)
        .containsEntry("message", "invalid total");
    assertThat(queryByNo(no).statusCode()).isEqualTo(404);
  }

  @Test
  void aRefundAmountSentAsAStringOrAFloatIsAParamError() throws Exception {
    for (String refund : new String[] {"\"1\"", "1.0"}) {
      String body =
          "{\"out_trade_no\":\"T"
              + number()
              + "\",\"out_refund_no\":\"R"
              + number()
              + "\",\"amount\":{\"refund\":"
              + refund
              + ",\"total\":100,\"currency\":\"CNY\"}}";

      HttpResponse<byte[]> r = send("POST", WechatProtocol.REFUNDS, body, body);

      assertThat(r.statusCode()).as(refund).isEqualTo(400);
      assertThat(verifiedAnswer(r))
          .containsEntry("code", WechatProtocol.PARAM_ERROR)
          .containsEntry("message", "invalid refund");
    }
  }

  @Test
  void aDuplicatedFieldRefusesTheWholeBody() throws Exception {
    String no = number();
    String duplicateTotal = order(no, "1, \"total\": 100");
    String duplicateNumber =
        order(no, "100").replaceFirst("\\{", "{\"out_trade_no\":\"" + number() + "\",");

    for (String body : new String[] {duplicateTotal, duplicateNumber}) {
      HttpResponse<byte[]> r = send("POST", WechatProtocol.NATIVE, body, body);

      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(verifiedAnswer(r))
          .containsEntry("code", WechatProtocol.PARAM_ERROR)
          .containsEntry("message", "body is not a JSON object");
    }
    assertThat(queryByNo(no).statusCode()).isEqualTo(404);
  }

  private static String order(String no, String total) {
    return "{\"mchid\":\""
        + MCHID
        + "\",\"appid\":\"wxd678efh567hg6787\",\"description\":\"coffee\",\"out_trade_no\":\""
        + no
        + "\",\"notify_url\":\"https://merchant.example/notify\",\"amount\":{\"total\":"
        + total
        + ",\"currency\":\"CNY\"}}";
  }

  private HttpResponse<byte[]> queryByNo(String no) throws Exception {
    return send("GET", WechatProtocol.BY_OUT_TRADE_NO + no + "?mchid=" + MCHID, "", "");
  }

  /** Sends {@code sent}, with an Authorization header signed over {@code signed}. */
  private HttpResponse<byte[]> send(String method, String url, String sent, String signed)
      throws Exception {
    String timestamp = Long.toString(System.currentTimeMillis() / 1000);
    String nonce = UUID.randomUUID().toString().replace("-", "");
    String signature =
        sign(message(signed.getBytes(StandardCharsets.UTF_8), method, url, timestamp, nonce));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(sim.baseUrl() + url))
            .timeout(Duration.ofSeconds(5))
            .header(
                "Authorization",
                WechatProtocol.AUTH_SCHEMA
                    + " mchid=\""
                    + MCHID
                    + "\",nonce_str=\""
                    + nonce
                    + "\",signature=\""
                    + signature
                    + "\",timestamp=\""
                    + timestamp
                    + "\",serial_no=\"MERCHANT-SERIAL-1\"");
    if (method.equals("GET")) {
      request.GET();
    } else {
      request
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofByteArray(sent.getBytes(StandardCharsets.UTF_8)));
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** The answer's JSON, after its platform signature verified over the bytes received. */
  private static Map<String, Object> verifiedAnswer(HttpResponse<byte[]> r) throws Exception {
    String timestamp = r.headers().firstValue(WechatProtocol.HEADER_TIMESTAMP).orElseThrow();
    String nonce = r.headers().firstValue(WechatProtocol.HEADER_NONCE).orElseThrow();
    String signature = r.headers().firstValue(WechatProtocol.HEADER_SIGNATURE).orElseThrow();
    Signature verifier = Signature.getInstance("SHA256withRSA");
    verifier.initVerify(PLATFORM.getPublic());
    verifier.update(message(r.body(), timestamp, nonce));
    assertThat(verifier.verify(Base64.getDecoder().decode(signature)))
        .as("platform signature over the bytes received")
        .isTrue();
    return JSON.readValue(r.body(), new TypeReference<Map<String, Object>>() {});
  }

  private static byte[] message(byte[] body, String... lines) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String line : lines) {
      out.writeBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
    }
    out.writeBytes(body);
    out.write('\n');
    return out.toByteArray();
  }

  private static String sign(byte[] message) throws GeneralSecurityException {
    Signature signer = Signature.getInstance("SHA256withRSA");
    signer.initSign(MERCHANT.getPrivate());
    signer.update(message);
    return Base64.getEncoder().encodeToString(signer.sign());
  }

  private static String text(HttpResponse<byte[]> r) {
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  private static String number() {
    return "S" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
  }

  private static KeyPair rsa() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
