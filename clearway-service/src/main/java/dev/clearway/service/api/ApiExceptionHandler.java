package dev.clearway.service.api;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/** Maps every refusal to {status, {code, message}}; never echoes input or internals. */
@RestControllerAdvice
public class ApiExceptionHandler {
  private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

  @ExceptionHandler(ApiException.class)
  ResponseEntity<ApiError> refused(ApiException e) {
    if (e.retryAfter().isPresent()) {
      long seconds = Math.max(1, (e.retryAfter().get().toMillis() + 999) / 1000);
      return ResponseEntity.status(e.status())
          .header(HttpHeaders.RETRY_AFTER, Long.toString(seconds))
          .body(new ApiError(e.code(), e.getMessage()));
    }
    if (e.legacyReference().isPresent()) {
      return ResponseEntity.status(e.status())
          .body(new ApiError(e.code(), e.getMessage(), e.legacyReference().get()));
    }
    return error(e.status(), e.code(), e.getMessage());
  }

  @ExceptionHandler(HttpMessageNotReadableException.class)
  ResponseEntity<ApiError> unreadable(HttpMessageNotReadableException e) {
    if (BodyLimitFilter.isTooLarge(e)) {
      return error(
          HttpStatus.CONTENT_TOO_LARGE, "body_too_large", "the request body exceeds 64 KiB");
    }
    return error(HttpStatus.BAD_REQUEST, "malformed_json", "the request body is not valid JSON");
  }

  @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
  ResponseEntity<ApiError> mediaType(HttpMediaTypeNotSupportedException e) {
    return error(
        HttpStatus.UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
        "send the body as application/json");
  }

  @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
  ResponseEntity<ApiError> method(HttpRequestMethodNotSupportedException e) {
    return error(HttpStatus.METHOD_NOT_ALLOWED, "method_not_allowed", "method not allowed here");
  }

  @ExceptionHandler(MethodArgumentTypeMismatchException.class)
  ResponseEntity<ApiError> typeMismatch(MethodArgumentTypeMismatchException e) {
    return error(HttpStatus.BAD_REQUEST, "invalid_parameter", "invalid value for " + e.getName());
  }

  @ExceptionHandler(NoResourceFoundException.class)
  ResponseEntity<ApiError> noResource(NoResourceFoundException e) {
    return error(HttpStatus.NOT_FOUND, "not_found", "no such resource");
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<ApiError> unexpected(Exception e) {
    log.error("unexpected error while serving a request: {}", e.getClass().getName(), e);
    return error(HttpStatus.INTERNAL_SERVER_ERROR, "internal_error", "internal error");
  }

  static ResponseEntity<ApiError> error(HttpStatus status, String code, String message) {
    return ResponseEntity.status(status).body(new ApiError(code, message));
  }
}
