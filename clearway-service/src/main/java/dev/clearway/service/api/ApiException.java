package dev.clearway.service.api;

import java.time.Duration;
import java.util.Optional;
import org.springframework.http.HttpStatus;

/** A refusal with a stable code. Thrown before anything is written. */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final HttpStatus status;
  private final String code;
  private final Duration retryAfter;
  private final String legacyReference;

  public ApiException(HttpStatus status, String code, String message) {
    this(status, code, message, null, null);
  }

  private ApiException(
      HttpStatus status, String code, String message, Duration retryAfter, String legacyReference) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
    this.legacyReference = legacyReference;
  }

  /**
   * A goal handed back to the legacy payment path, naming the legacy payment's reference when one
   * is known; nothing was written.
   */
  public static ApiException handBack(
      HttpStatus status, String code, String message, String legacyReference) {
    return new ApiException(status, code, message, null, legacyReference);
  }

  /** A refusal the client should retry after {@code retryAfter}; nothing was written. */
  public static ApiException retryLater(
      HttpStatus status, String code, String message, Duration retryAfter) {
    return new ApiException(status, code, message, retryAfter, null);
  }

  /**
   * 503 {@code overloaded} with a {@code Retry-After}: no worker was free to advance the request
   * now; what it created exists and goes on in the background.
   */
  public static ApiException overloaded(String message, Duration retryAfter) {
    return new ApiException(
        HttpStatus.SERVICE_UNAVAILABLE, "overloaded", message, retryAfter, null);
  }

  public static ApiException badRequest(String code, String message) {
    return new ApiException(HttpStatus.BAD_REQUEST, code, message);
  }

  public HttpStatus status() {
    return status;
  }

  public String code() {
    return code;
  }

  /** The legacy payment's reference of a hand-back, if the refusal names one. */
  public Optional<String> legacyReference() {
    return Optional.ofNullable(legacyReference);
  }

  /** When the client should try again, if the refusal says so. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
