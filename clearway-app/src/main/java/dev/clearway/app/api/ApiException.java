package dev.clearway.app.api;

import org.springframework.http.HttpStatus;

/** A refusal with a stable code. Thrown before anything is written. */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final HttpStatus status;
  private final String code;

  public ApiException(HttpStatus status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
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
}
