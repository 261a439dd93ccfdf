package dev.clearway.service.review;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.RecoveryCapabilities;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.channel.spi.WebhookRejected;
import java.util.Map;

/** A PSP that answers every call with a timeout: no result can ever be learned from it. */
final class SilentPsp implements PspAdapter {
  @Override
  public String channel() {
    return "stripe";
  }

  @Override
  public RecoveryCapabilities capabilities() {
    return new RecoveryCapabilities(false, false, false, false, false);
  }

  @Override
  public PspOutcome create(CreatePayment request) {
    return PspOutcome.unknown("read_timeout");
  }

  @Override
  public PspOutcome retrieve(AttemptRef attempt) {
    return PspOutcome.unknown("read_timeout");
  }

  @Override
  public PspOutcome close(AttemptRef attempt) {
    return PspOutcome.unknown("read_timeout");
  }

  @Override
  public RefundOutcome refund(RefundCall refund) {
    return RefundOutcome.unknown("read_timeout");
  }

  @Override
  public RefundOutcome queryRefund(RefundCall refund) {
    return RefundOutcome.unknown("read_timeout");
  }

  @Override
  public WebhookNotice parseWebhook(Map<String, String> headers, byte[] rawBody)
      throws WebhookRejected {
    throw new WebhookRejected("not_signed", "this PSP sends no webhooks");
  }
}
