package dev.clearway.service.api;

import java.util.Map;
import java.util.Optional;

/**
 * The channels that may call back, with their signing secrets. Secrets are held here only and never
 * logged.
 */
public final class CallbackChannels {
  private final Map<String, String> secrets;

  public CallbackChannels(Map<String, String> secrets) {
    this.secrets = Map.copyOf(secrets);
  }

  public Optional<String> secret(String channel) {
    return Optional.ofNullable(secrets.get(channel));
  }
}
