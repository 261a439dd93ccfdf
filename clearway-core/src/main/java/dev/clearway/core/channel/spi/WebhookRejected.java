package dev.clearway.core.channel.spi;

/**
 * A webhook that must not be acted on. {@code code} is stable: {@code bad_signature}, {@code
 * stale_timestamp}, {@code malformed}, {@code decrypt_failed}. The message never contains the body.
 */
public final class WebhookRejected extends Exception {

  private final String code;

  public WebhookRejected(String code, String message) {
    super(message);
    this.code = code;
  }

  public String code() {
    return code;
  }
}
