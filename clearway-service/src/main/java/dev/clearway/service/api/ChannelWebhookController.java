package dev.clearway.service.api;

import dev.clearway.core.channel.engine.ChannelWebhookIntake;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /v1/channels/{channelAccountId}/webhooks}: a PSP's webhook (Stripe-style signed
 * {@code t=,v1=}; WeChat Pay v3-style RSA-signed and AES-GCM encrypted). The account's adapter
 * verifies and decodes it; the channel layer records it through the attempt's CAS path. 200 once
 * processed or for a duplicate (the PSP stops redelivering), 400 with a stable code when refused,
 * 503 when the news could not be confirmed yet (the PSP delivers again), 404 when the channel layer
 * is not enabled. No API key: authenticated by the signature.
 */
@RestController
public class ChannelWebhookController {

  private final ObjectProvider<ChannelWebhookIntake> intake;
  private final MeterRegistry metrics;

  public ChannelWebhookController(
      ObjectProvider<ChannelWebhookIntake> intake, MeterRegistry metrics) {
    this.intake = intake;
    this.metrics = metrics;
  }

  @PostMapping("/v1/channels/{channelAccountId}/webhooks")
  public ResponseEntity<Map<String, String>> receive(
      @PathVariable("channelAccountId") long channelAccountId,
      @RequestBody(required = false) byte[] body,
      HttpServletRequest request) {
    ChannelWebhookIntake target = intake.getIfAvailable();
    if (target == null) {
      return ResponseEntity.status(404).body(Map.of("code", "channels_disabled"));
    }
    Map<String, String> headers = new HashMap<>();
    for (String name : Collections.list(request.getHeaderNames())) {
      headers.put(name.toLowerCase(Locale.ROOT), request.getHeader(name));
    }
    ChannelWebhookIntake.Result result;
    try {
      result = target.accept(channelAccountId, headers, body == null ? new byte[0] : body);
    } catch (IllegalArgumentException unknownAccount) {
      return ResponseEntity.status(404).body(Map.of("code", "unknown_channel_account"));
    }
    metrics.counter("clearway.channel.webhooks", "code", result.code()).increment();
    int status =
        switch (result.disposition()) {
          case PROCESSED -> 200;
          case REFUSED -> 400;
          case REDELIVER -> 503;
        };
    return ResponseEntity.status(status).body(Map.of("code", result.code()));
  }
}
