package dev.clearway.service.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code Authorization: Bearer <key>} on everything but the open paths: health (as Spring Boot
 * users expect), the OpenAPI document, the console's page, and callbacks (verified by signature).
 * The payment API takes merchant keys only; {@code /actuator/prometheus} takes an operator or a
 * metrics key.
 */
public final class ApiKeyFilter extends OncePerRequestFilter {
  public static final String PRINCIPAL = "clearway.principal";

  static final String PROMETHEUS = "/actuator/prometheus";

  private final ApiKeys keys;

  public ApiKeyFilter(ApiKeys keys) {
    this.keys = keys;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String path = request.getRequestURI();
    if (!isPlain(path)) {
      // The role checks below read the raw path; Spring MVC matches a decoded one without
      // ";params". A path that could read differently to the two names no resource of ours.
      JsonErrors.write(response, HttpStatus.NOT_FOUND, "not_found", "no such resource");
      return;
    }
    if (isOpen(path)) {
      chain.doFilter(request, response);
      return;
    }
    String header = request.getHeader("Authorization");
    String presented =
        header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
            ? header.substring(7).strip()
            : null;
    Optional<ApiKeys.Principal> principal = keys.authenticate(presented);
    if (principal.isEmpty()) {
      JsonErrors.write(
          response, HttpStatus.UNAUTHORIZED, "unauthorized", "a valid API key is required");
      return;
    }
    Optional<String> refusal = refusal(principal.get().role(), path);
    if (refusal.isPresent()) {
      JsonErrors.write(response, HttpStatus.FORBIDDEN, "forbidden", refusal.get());
      return;
    }
    request.setAttribute(PRINCIPAL, principal.get());
    chain.doFilter(request, response);
  }

  /**
   * Why a role may not call a path, if it may not: the payment API takes merchant keys, operations
   * take operator and approver keys, the Prometheus scrape takes operator and metrics keys, and a
   * metrics key opens nothing else.
   */
  static Optional<String> refusal(Role role, String path) {
    if (path.startsWith("/v1/")) {
      return role == Role.MERCHANT
          ? Optional.empty()
          : Optional.of("this key may not call the payment API");
    }
    if (path.startsWith("/ops/")) {
      return role == Role.OPERATOR || role == Role.APPROVER
          ? Optional.empty()
          : Optional.of("operations need an operator or approver key");
    }
    if (path.equals(PROMETHEUS)) {
      return role == Role.OPERATOR || role == Role.METRICS
          ? Optional.empty()
          : Optional.of("metrics need an operator or metrics key");
    }
    return role == Role.METRICS
        ? Optional.of("a metrics key opens only " + PROMETHEUS)
        : Optional.empty();
  }

  /** No encoded characters, matrix parameters, backslashes, empty or dot segments. */
  static boolean isPlain(String path) {
    return path.indexOf(';') < 0
        && path.indexOf('%') < 0
        && path.indexOf('\\') < 0
        && !path.contains("//")
        && !path.contains("/./")
        && !path.contains("/../")
        && !path.endsWith("/.")
        && !path.endsWith("/..");
  }

  static boolean isOpen(String path) {
    return path.equals("/actuator/health")
        || path.startsWith("/actuator/health/")
        || path.startsWith("/v3/api-docs")
        || path.startsWith("/swagger-ui")
        || path.startsWith("/v1/callbacks/")
        // PSP webhooks: authenticated by their signature, checked by the account's adapter.
        || (path.startsWith("/v1/channels/") && path.endsWith("/webhooks"))
        // The console's page and scripts hold no data; everything they show comes from /ops/
        // with the key the person types in.
        || path.equals("/console")
        || path.startsWith("/console/");
  }
}
