package dev.clearway.service.api;

import dev.clearway.boot.EngineAssembly;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.signature.WebhookSignature;
import dev.clearway.store.JdbcCallbackInbox;
import io.micrometer.core.instrument.MeterRegistry;
import io.swagger.v3.oas.annotations.Operation;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /v1/callbacks/{channel}}: verify the signature, store the event durably (deduplicated
 * by event id), answer 2xx only then, and wake the advancer of a flow not yet final. A callback
 * never writes flow state: the advancer re-reads the row and asks the wallet. An event about a flow
 * that ended without payment leaves a late-charge check, stored with the event.
 */
@RestController
public class CallbackController {
  private final CallbackChannels channels;
  private final JdbcCallbackInbox inbox;
  private final FlowStore flows;
  private final EngineAssembly engine;
  private final MeterRegistry metrics;
  private final ObjectReader events;
  private final Clock clock;

  public CallbackController(
      CallbackChannels channels,
      JdbcCallbackInbox inbox,
      FlowStore flows,
      EngineAssembly engine,
      MeterRegistry metrics,
      ObjectProvider<Clock> clock) {
    this.channels = channels;
    this.inbox = inbox;
    this.flows = flows;
    this.engine = engine;
    this.metrics = metrics;
    this.events = JsonMapper.builder().build().readerFor(CallbackEvent.class);
    this.clock = clock.getIfAvailable(Clock::systemUTC);
  }

  @Operation(summary = "Signed payment-channel callback; acknowledged after it is stored")
  @Refusal(status = 400, code = "malformed_signature", message = "malformed signature header")
  @Refusal(
      status = 400,
      code = "stale_timestamp",
      message = "signature timestamp outside tolerance")
  @Refusal(status = 400, code = "malformed_event", message = "the event is not valid JSON")
  @Refusal(status = 401, code = "invalid_signature", message = "signature does not match")
  @Refusal(status = 404, code = "unknown_channel", message = "no such channel")
  @PostMapping(path = "/v1/callbacks/{channel}", produces = MediaType.APPLICATION_JSON_VALUE)
  public Map<String, Object> receive(
      @PathVariable("channel") String channel,
      @RequestHeader(name = WebhookSignature.HEADER, required = false) String signature,
      @RequestBody(required = false) byte[] body) {
    String secret =
        channels
            .secret(channel)
            .orElseThrow(
                () -> refuse(channel, HttpStatus.NOT_FOUND, "unknown_channel", "no such channel"));
    byte[] raw = body == null ? new byte[0] : body;
    switch (WebhookSignature.verify(signature, raw, secret, clock.instant())) {
      case VALID -> {}
      case BAD_SIGNATURE ->
          throw refuse(
              channel, HttpStatus.UNAUTHORIZED, "invalid_signature", "signature does not match");
      case STALE_TIMESTAMP ->
          throw refuse(
              channel,
              HttpStatus.BAD_REQUEST,
              "stale_timestamp",
              "signature timestamp outside tolerance");
      case MALFORMED ->
          throw refuse(
              channel, HttpStatus.BAD_REQUEST, "malformed_signature", "malformed signature header");
    }
    CallbackEvent event = parse(channel, raw);
    Optional<PayFlow> flow = flows.findByOrderNo(event.tradeOrderNo());
    String outcome = flow.isPresent() ? "ACCEPTED" : "UNKNOWN_ORDER";
    boolean fresh =
        inbox.store(
            new JdbcCallbackInbox.Event(
                channel,
                event.id(),
                event.type(),
                event.tradeOrderNo(),
                event.refundOrderNo(),
                flow.map(PayFlow::id).orElse(null),
                outcome,
                sha256(raw),
                clock.instant()));
    count(channel, fresh ? outcome : "DUPLICATE");
    if (fresh && flow.isPresent() && !flow.get().isTerminal()) {
      // Stored first; the wake-up is only a hint (lost, the scanner finds the flow anyway). A
      // final flow is not woken: no advance moves it again, and an event about a flow that ended
      // unpaid stored its late-charge check in the same transaction.
      engine.runtime().wake(flow.get().id(), TriggerSource.CALLBACK);
    }
    return Map.of("received", true, "duplicate", !fresh);
  }

  private CallbackEvent parse(String channel, byte[] raw) {
    CallbackEvent event;
    try {
      event = events.readValue(new String(raw, StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      throw refuse(
          channel, HttpStatus.BAD_REQUEST, "malformed_event", "the event is not valid JSON");
    }
    if (event == null
        || blank(event.id(), 128)
        || blank(event.type(), 64)
        || blank(event.tradeOrderNo(), 96)) {
      throw refuse(
          channel,
          HttpStatus.BAD_REQUEST,
          "malformed_event",
          "the event needs id, type and tradeOrderNo");
    }
    return event;
  }

  private static boolean blank(String s, int max) {
    return s == null || s.isBlank() || s.length() > max;
  }

  private ApiException refuse(String channel, HttpStatus status, String code, String message) {
    count(channel, code.toUpperCase());
    return new ApiException(status, code, message);
  }

  private void count(String channel, String outcome) {
    String known = channels.secret(channel).isPresent() ? channel : "unknown";
    metrics.counter("clearway.callbacks", "channel", known, "outcome", outcome).increment();
  }

  private static String sha256(byte[] raw) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(raw));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
