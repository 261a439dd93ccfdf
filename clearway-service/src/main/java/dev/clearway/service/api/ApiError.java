package dev.clearway.service.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The body of every 4xx and 5xx answer: a stable machine code and a human message; a goal handed
 * back to the legacy payment path also names the legacy payment's reference when one is known.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApiError(String code, String message, String legacyReference) {
  public ApiError(String code, String message) {
    this(code, message, null);
  }
}
