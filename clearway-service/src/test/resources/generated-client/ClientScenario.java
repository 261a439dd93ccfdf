package dev.clearway.client.scenario;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clearway.client.ApiClient;
import dev.clearway.client.ApiException;
import dev.clearway.client.ApiResponse;
import dev.clearway.client.api.PaymentsApi;
import dev.clearway.client.api.RefundsApi;
import dev.clearway.client.model.ApiError;
import dev.clearway.client.model.CreatePaymentRequest;
import dev.clearway.client.model.CreateRefundRequest;
import dev.clearway.client.model.FlowView;
import dev.clearway.client.model.RefundView;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Compiled with the client OpenAPI Generator made from the service's document, and called by the
 * test: typed calls through the generated API classes, answers handed back as plain maps. The
 * generated native client carries no authentication, so the bearer key is set on every request.
 */
public final class ClientScenario {
  private final PaymentsApi payments;
  private final RefundsApi refunds;
  private final ObjectMapper json;

  public ClientScenario(String baseUrl, String merchantKey) {
    ApiClient client = new ApiClient();
    client.updateBaseUri(baseUrl);
    client.setRequestInterceptor(r -> r.header("Authorization", "Bearer " + merchantKey));
    this.payments = new PaymentsApi(client);
    this.refunds = new RefundsApi(client);
    this.json = client.getObjectMapper();
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
          ApiResponse<FlowView> r = payments.createPaymentWithHttpInfo(idempotencyKey, body);
          Map<String, Object> out = flow(r.getData());
          out.put("httpStatus", r.getStatusCode());
          out.put("replayed", r.getHeaders().getOrDefault("idempotent-replayed", java.util.List.of()));
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
          ApiResponse<RefundView> r =
              refunds.createRefundWithHttpInfo(
                  flowId, idempotencyKey, new CreateRefundRequest().amount(amount).reason(reason));
          Map<String, Object> out = new LinkedHashMap<>();
          out.put("httpStatus", r.getStatusCode());
          out.put("refundId", r.getData().getRefundId());
          out.put("amount", r.getData().getAmount());
          out.put("status", String.valueOf(r.getData().getStatus()));
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
