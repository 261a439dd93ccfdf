package dev.clearway.service.api;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.json.JsonMapper;

/** Writes an {@link ApiError} body from a filter, before Spring MVC is involved. */
final class JsonErrors {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private JsonErrors() {}

  static void write(HttpServletResponse response, HttpStatus status, String code, String message)
      throws IOException {
    response.setStatus(status.value());
    response.setContentType("application/json");
    Map<String, String> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    byte[] body = JSON.writeValueAsBytes(error);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
