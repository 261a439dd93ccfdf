package dev.clearway.service.api;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpStatus;

/** Writes an {@link ApiError} body from a filter, before Spring MVC is involved. */
final class JsonErrors {
  private JsonErrors() {}

  static void write(HttpServletResponse response, HttpStatus status, String code, String message)
      throws IOException {
    response.setStatus(status.value());
    response.setContentType("application/json");
    byte[] body =
        ("{\"code\":\"" + code + "\",\"message\":\"" + message.replace("\"", "'") + "\"}")
            .getBytes(StandardCharsets.UTF_8);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
