package dev.clearway.core.channel.spi;

import dev.clearway.core.statement.Statement;
import java.time.LocalDate;
import java.util.Map;

/**
 * One PSP channel account as the core sees it. One instance per channel account: it holds that
 * account's base URL and credentials.
 *
 * <p>Contract for every method: never throws for transport problems or PSP errors; answers with a
 * certainty. Connection refused, DNS failure, 5xx and proxy errors are {@link
 * ResultCertainty#UNKNOWN} unless the adapter can prove the PSP did not execute. No method logs
 * secrets, tokens or account numbers.
 */
public interface PspAdapter {

  /** The channel this adapter speaks, such as {@code stripe} or {@code wechat}. */
  String channel();

  RecoveryCapabilities capabilities();

  /**
   * Creates (or, with the same key and parameters, replays) the payment of one attempt. A replay is
   * the very same {@link CreatePayment}: the PSP answers with the stored result.
   */
  PspOutcome create(CreatePayment request);

  /**
   * Reads the attempt at the PSP by provider id, or by merchant reference where the channel
   * supports search or queries by its own reference. {@link ResultCertainty#NO_SIDE_EFFECT} means
   * the PSP authoritatively has no such payment.
   */
  PspOutcome retrieve(AttemptRef attempt);

  /**
   * Closes (cancels) an attempt that has not been paid, so that it can never charge: {@link
   * ResultCertainty#DEFINITE_FAILURE} with error code {@code CLOSED} when it is closed, {@link
   * ResultCertainty#CONFIRMED_SUCCESS} when it turned out to be paid, UNKNOWN otherwise.
   */
  PspOutcome close(AttemptRef attempt);

  RefundOutcome refund(RefundCall refund);

  RefundOutcome queryRefund(RefundCall refund);

  /**
   * Verifies and decodes one webhook delivery.
   *
   * @param headers request headers, names lower-cased
   * @param rawBody the body exactly as received
   * @throws WebhookRejected when the signature, timestamp or encryption does not check out
   */
  WebhookNotice parseWebhook(Map<String, String> headers, byte[] rawBody) throws WebhookRejected;

  /** Whether the PSP publishes a daily statement this adapter can download. */
  default boolean settlementReportAvailable() {
    return false;
  }

  /**
   * Downloads the PSP's statement of one account for one day, as raw bytes with their format and
   * the hash the PSP announced for them, if it announces one. Unlike the payment calls, a statement
   * that cannot be fetched is an exception: there is no certainty to answer with, and the caller
   * retries the whole download later.
   *
   * @throws UnsupportedOperationException when {@link #settlementReportAvailable()} is false
   * @throws java.io.UncheckedIOException when the PSP cannot be reached or refuses the download
   */
  default Statement downloadStatement(String accountRef, LocalDate day) {
    throw new UnsupportedOperationException(channel() + " publishes no statement");
  }
}
