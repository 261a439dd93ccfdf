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

  public ApiException(HttpStatus status, String code, String message) {
    this(status, code, message, null);
  }

  private ApiException(HttpStatus status, String code, String message, Duration retryAfter) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }

  /**
   * 503 {@code overloaded} with a {@code Retry-After}: no worker was free to advance the request
   * now; what it created exists and goes on in the background.
   */
  public static ApiException overloaded(String message, Duration retryAfter) {
    return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "overloaded", message, retryAfter);
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

  /** When the client should try again, if the refusal says so. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
