package dev.clearway.client.scenario;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clearway.client.ApiClient;
import dev.clearway.client.ApiException;
import dev.clearway.client.api.PaymentsApi;
import dev.clearway.client.auth.HttpBearerAuth;
import dev.clearway.client.api.RefundsApi;
import dev.clearway.client.model.ApiError;
import dev.clearway.client.model.CreatePaymentRequest;
import dev.clearway.client.model.CreateRefundRequest;
import dev.clearway.client.model.FlowView;
import dev.clearway.client.model.RefundView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Compiled with the client OpenAPI Generator made from the service's document, and called by the
 * test: typed calls through the generated API classes, answers handed back as plain maps. The key
 * goes through the generated client's own authentication: the bearer scheme {@code merchantKey}
 * the document declares, which the generated operations apply to each request they send.
 */
public final class ClientScenario {
  private final ApiClient client;
  private final PaymentsApi payments;
  private final RefundsApi refunds;
  private final ObjectMapper json;

  public ClientScenario(String baseUrl, String merchantKey) {
    this.client = new ApiClient();
    client.setBasePath(baseUrl);
    ((HttpBearerAuth) client.getAuthentication("merchantKey")).setBearerToken(merchantKey);
    this.payments = new PaymentsApi(client);
    this.refunds = new RefundsApi(client);
    this.json = client.getObjectMapper();
  }

  /** The schemes the generated client knows and the kind of each, e.g. merchantKey=bearer. */
  public Map<String, Object> authentications() {
    Map<String, Object> out = new LinkedHashMap<>();
    client
        .getAuthentications()
        .forEach(
            (name, auth) ->
                out.put(
                    name,
                    auth instanceof HttpBearerAuth ? "bearer" : auth.getClass().getSimpleName()));
    return out;
  }

  public Map<String, Object> createPayment(
      String idempotencyKey, Long userId, String bizKey, Long amount, String deadline) {
    return answer(
        () -> {
          CreatePaymentRequest body =
              new CreatePaymentRequest()
                  .userId(userId)
                  .scene("renewal")
                  .bizKey(bizKey)
                  .amount(amount)
                  .currency("CNY")
                  .bizDeadline(deadline);
          Map<String, Object> out = flow(payments.createPayment(idempotencyKey, body));
          out.put("httpStatus", client.getStatusCode());
          out.put("replayed", header("Idempotent-Replayed"));
          return out;
        });
  }

  public Map<String, Object> getPaymentFlow(Long flowId) {
    return answer(() -> flow(payments.getPaymentFlow(flowId)));
  }

  public Map<String, Object> cancelPayment(Long flowId) {
    return answer(() -> flow(payments.cancelPayment(flowId)));
  }

  public Map<String, Object> createRefund(
      Long flowId, String idempotencyKey, Long amount, String reason) {
    return answer(
        () -> {
          RefundView refund =
              refunds.createRefund(
                  flowId, idempotencyKey, new CreateRefundRequest().amount(amount).reason(reason));
          Map<String, Object> out = new LinkedHashMap<>();
          out.put("httpStatus", client.getStatusCode());
          out.put("refundId", refund.getRefundId());
          out.put("amount", refund.getAmount());
          out.put("status", String.valueOf(refund.getStatus()));
          return out;
        });
  }

  public Map<String, Object> getRefund(Long refundId) {
    return answer(
        () -> {
          RefundView refund = refunds.getRefund(refundId);
          Map<String, Object> out = new LinkedHashMap<>();
          out.put("refundId", refund.getRefundId());
          out.put("flowId", refund.getFlowId());
          out.put("amount", refund.getAmount());
          return out;
        });
  }

  /** The values of a header of the last answer, its name in any case. */
  private List<String> header(String name) {
    for (Map.Entry<String, List<String>> h : client.getResponseHeaders().entrySet()) {
      if (h.getKey().equalsIgnoreCase(name)) {
        return h.getValue();
      }
    }
    return List.of();
  }

  private static Map<String, Object> flow(FlowView flow) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("flowId", flow.getFlowId());
    out.put("status", String.valueOf(flow.getStatus()));
    out.put("amount", flow.getAmount());
    out.put("cancelRequested", flow.getCancelRequested());
    return out;
  }

  /** The call's answer, or the refusal the generated exception carries, read as ApiError. */
  private Map<String, Object> answer(Callable<Map<String, Object>> call) {
    try {
      return call.call();
    } catch (ApiException e) {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("httpStatus", e.getCode());
      try {
        ApiError error = json.readValue(e.getResponseBody(), ApiError.class);
        out.put("code", error.getCode());
        out.put("message", error.getMessage());
      } catch (Exception unreadable) {
        out.put("body", e.getResponseBody());
      }
      return out;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
