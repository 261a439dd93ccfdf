package dev.clearway.psp.wechat;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.RecoveryCapabilities;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.channel.spi.WebhookRejected;
import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;

/**
 * A WeChat Pay API v3 channel account behind the {@link PspAdapter} SPI: native (QR code) and JSAPI
 * orders, direct or in partner mode (the account is a service provider's; an attempt whose party
 * names a sub-merchant is created, queried, closed and refunded for that {@code sub_mchid}). A
 * pending create carries what the customer's client needs (see {@link WechatClientActions}).
 *
 * <p>The attempt's idempotency key is the {@code out_trade_no}: a replay re-creates with the same
 * number and parameters and gets the same answer; a query by that number is authoritative, and a
 * 404 there means WeChat Pay holds no such order (close the number before relying on it). Every
 * request is signed with the merchant key and every answer's platform signature is verified; an
 * answer that does not verify is UNKNOWN. Nothing here throws for transport or PSP errors, and
 * nothing logs keys, signatures or bodies.
 */
public final class WechatPayAdapter implements PspAdapter {
  private static final Pattern MERCHANT_NO = Pattern.compile("[A-Za-z0-9_*|-]{6,32}");
  private static final Pattern TRANSACTION_ID = Pattern.compile("[A-Za-z0-9]{1,32}");
  private static final Pattern SUB_MCHID = Pattern.compile("[0-9]{8,32}");
  private static final int MAX_DESCRIPTION = 127;
  private static final int MAX_ATTACH = 128;

  private final WechatPayConfig config;
  private final WechatHttp http;
  private final WechatNotifications notifications;

  public WechatPayAdapter(WechatPayConfig config) {
    this(config, WechatKeyEvents.none());
  }

  /**
   * An adapter that reports answers signed with an unknown platform serial to {@code keyEvents}.
   */
  public WechatPayAdapter(WechatPayConfig config, WechatKeyEvents keyEvents) {
    this.config = Objects.requireNonNull(config, "config");
    JsonMapper json = JsonMapper.builder().build();
    this.http = new WechatHttp(config, json, keyEvents);
    this.notifications = new WechatNotifications(config, json, keyEvents);
  }

  @Override
  public String channel() {
    return "wechat";
  }

  @Override
  public RecoveryCapabilities capabilities() {
    return new RecoveryCapabilities(true, true, true, true, true);
  }

  /**
   * {@code POST /v3/pay/transactions/native}. A key that WeChat Pay would refuse as out_trade_no
   * (not 6-32 of {@code [A-Za-z0-9_*|-]}) never leaves the process: NO_SIDE_EFFECT.
   */
  @Override
  public PspOutcome create(CreatePayment request) {
    if (!MERCHANT_NO.matcher(request.idempotencyKey()).matches()) {
      return refusedLocally("INVALID_OUT_TRADE_NO");
    }
    if (request.merchantReference().length() > MAX_ATTACH) {
      return refusedLocally("INVALID_MERCHANT_REFERENCE");
    }
    String description =
        request.description() == null || request.description().isBlank()
            ? request.merchantReference()
            : request.description();
    if (description.length() > MAX_DESCRIPTION) {
      description = description.substring(0, MAX_DESCRIPTION);
    }
    if (WechatOrderRequest.JSAPI_METHOD.equals(request.paymentMethod())
        && (request.party().payer() == null || request.party().payer().isBlank())) {
      return refusedLocally("PAYER_REQUIRED");
    }
    if (request.party().partner() && !SUB_MCHID.matcher(request.party().subMerchant()).matches()) {
      return refusedLocally("INVALID_SUB_MCHID");
    }
    WechatOrderRequest order =
        WechatOrderRequest.of(
            request, config.credentials(), config.notifyUrl().toString(), description);
    WechatReply reply = http.post(order.path(), order.body());
    PspOutcome outcome = WechatOutcomes.created(reply);
    if (outcome.certainty() != ResultCertainty.PENDING) {
      return outcome;
    }
    String prepayId = reply.text("prepay_id");
    if (order.jsapi() && prepayId != null) {
      return outcome.withClientAction(
          WechatClientActions.jsapi(
              config.credentials().appid(),
              prepayId,
              config.credentials().merchantPrivateKey(),
              config.clock()));
    }
    String codeUrl = reply.text("code_url");
    return codeUrl == null
        ? outcome
        : outcome.withClientAction(WechatClientActions.nativeQr(codeUrl));
  }

  /**
   * Queries by out_trade_no (the attempt's key), or by transaction_id when only that is known.
   * NO_SIDE_EFFECT with {@code ORDER_NOT_EXIST} when WeChat Pay has no such order.
   */
  @Override
  public PspOutcome retrieve(AttemptRef attempt) {
    String mchid = "?mchid=" + config.credentials().mchid();
    if (attempt.party().partner()) {
      return retrievePartner(attempt);
    }
    if (attempt.idempotencyKey() != null) {
      if (!MERCHANT_NO.matcher(attempt.idempotencyKey()).matches()) {
        // Such a number can never have been accepted: create refuses it before sending.
        return refusedLocally("ORDER_NOT_EXIST");
      }
      return WechatOutcomes.queried(
          http.get("/v3/pay/transactions/out-trade-no/" + attempt.idempotencyKey() + mchid));
    }
    if (attempt.providerPaymentId() != null
        && TRANSACTION_ID.matcher(attempt.providerPaymentId()).matches()) {
      return WechatOutcomes.queried(
          http.get("/v3/pay/transactions/id/" + attempt.providerPaymentId() + mchid));
    }
    return PspOutcome.unknown("NO_REFERENCE");
  }

  /**
   * Partner mode: {@code GET /v3/pay/partner/transactions/out-trade-no/{no}?sp_mchid=&sub_mchid=}.
   */
  private PspOutcome retrievePartner(AttemptRef attempt) {
    String no = attempt.idempotencyKey();
    String sub = attempt.party().subMerchant();
    if (no == null || !MERCHANT_NO.matcher(no).matches() || !SUB_MCHID.matcher(sub).matches()) {
      return no == null ? PspOutcome.unknown("NO_REFERENCE") : refusedLocally("ORDER_NOT_EXIST");
    }
    return WechatOutcomes.queried(
        http.get(
            "/v3/pay/partner/transactions/out-trade-no/"
                + no
                + "?sp_mchid="
                + config.credentials().mchid()
                + "&sub_mchid="
                + sub));
  }

  /**
   * Closes the order, also one never created (WeChat Pay then refuses that number for good), so a
   * 204 proves the attempt can never charge.
   */
  @Override
  public PspOutcome close(AttemptRef attempt) {
    String no = attempt.idempotencyKey();
    if (no == null || !MERCHANT_NO.matcher(no).matches()) {
      return PspOutcome.unknown("NO_REFERENCE");
    }
    if (attempt.party().partner()) {
      if (!SUB_MCHID.matcher(attempt.party().subMerchant()).matches()) {
        return PspOutcome.unknown("NO_REFERENCE");
      }
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("sp_mchid", config.credentials().mchid());
      body.put("sub_mchid", attempt.party().subMerchant());
      return WechatOutcomes.closed(
          http.post("/v3/pay/partner/transactions/out-trade-no/" + no + "/close", body));
    }
    Map<String, Object> body = Map.of("mchid", config.credentials().mchid());
    return WechatOutcomes.closed(
        http.post("/v3/pay/transactions/out-trade-no/" + no + "/close", body));
  }

  /** {@code POST /v3/refund/domestic/refunds} with out_refund_no = the refund number. */
  @Override
  public RefundOutcome refund(RefundCall refund) {
    if (!validRefund(refund)) {
      return new RefundOutcome(
          RefundOutcome.RefundState.REJECTED, null, null, "INVALID_REFUND", null, null);
    }
    Map<String, Object> amount = new LinkedHashMap<>();
    amount.put("refund", refund.amount());
    amount.put("total", refund.chargedAmount());
    amount.put("currency", refund.currency());
    Map<String, Object> body = new LinkedHashMap<>();
    if (refund.attempt().party().partner()) {
      body.put("sub_mchid", refund.attempt().party().subMerchant());
    }
    body.put("out_trade_no", refund.attempt().idempotencyKey());
    body.put("out_refund_no", refund.refundNo());
    body.put("amount", amount);
    return WechatOutcomes.refunded(http.post("/v3/refund/domestic/refunds", body), false);
  }

  @Override
  public RefundOutcome queryRefund(RefundCall refund) {
    if (refund.refundNo() == null || !MERCHANT_NO.matcher(refund.refundNo()).matches()) {
      return new RefundOutcome(
          RefundOutcome.RefundState.NOT_FOUND, null, null, "INVALID_REFUND_NO", null, null);
    }
    return WechatOutcomes.refunded(
        http.get("/v3/refund/domestic/refunds/" + refund.refundNo()), true);
  }

  @Override
  public WebhookNotice parseWebhook(Map<String, String> headers, byte[] rawBody)
      throws WebhookRejected {
    return notifications.parse(headers, rawBody);
  }

  private static boolean validRefund(RefundCall refund) {
    return refund.refundNo() != null
        && MERCHANT_NO.matcher(refund.refundNo()).matches()
        && refund.attempt() != null
        && refund.attempt().idempotencyKey() != null
        && MERCHANT_NO.matcher(refund.attempt().idempotencyKey()).matches()
        && refund.amount() > 0
        && refund.chargedAmount() > 0
        && refund.currency() != null;
  }

  private static PspOutcome refusedLocally(String code) {
    return PspOutcome.refusedUnexecuted(code);
  }

  @Override
  public String toString() {
    return "WechatPayAdapter[mchid=" + config.credentials().mchid() + "]";
  }

  @Override
  public boolean settlementReportAvailable() {
    return true;
  }

  /**
   * {@code GET /v3/bill/tradebill?bill_date=..} for the hash and download URL, then the trade bill
   * itself. The statement carries the announced hash; the importer checks it.
   */
  @Override
  public Statement downloadStatement(String accountRef, LocalDate day) {
    WechatReply reply = http.get("/v3/bill/tradebill?bill_date=" + day);
    if (!reply.authentic() || reply.status() != 200) {
      String why = reply.authentic() ? reply.status() + " " + reply.code() : reply.failure();
      throw new UncheckedIOException(new IOException("tradebill query failed: " + why));
    }
    String hashType = reply.text("hash_type");
    String hashValue = reply.text("hash_value");
    String url = reply.text("download_url");
    if (hashType == null || hashValue == null || url == null) {
      throw new UncheckedIOException(new IOException("tradebill answer lacks a field"));
    }
    return new Statement(StatementFormat.WECHAT_TRADEBILL, http.download(url), hashValue, hashType);
  }
}
