package dev.clearway.service.api;

import dev.clearway.service.api.ApiKeys.Principal;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;
import org.springframework.http.HttpStatus;

/**
 * The checks every ops request shares: who calls (403 {@code forbidden} for the wrong key) and its
 * required, bounded texts (400 {@code missing_field}, {@code field_too_long}).
 */
public final class OpsCallers {
  private OpsCallers() {}

  /** The caller, who must hold {@code needed}'s key. */
  public static Principal principal(HttpServletRequest request, Role needed) {
    Principal p = (Principal) request.getAttribute(ApiKeyFilter.PRINCIPAL);
    if (p == null || p.role() != needed) {
      throw new ApiException(
          HttpStatus.FORBIDDEN,
          "forbidden",
          "this needs an " + needed.name().toLowerCase(Locale.ROOT) + " key");
    }
    return p;
  }

  /** The caller, who must be a person (an operator or an approver). */
  public static Principal person(HttpServletRequest request) {
    Principal p = (Principal) request.getAttribute(ApiKeyFilter.PRINCIPAL);
    if (p == null || !p.role().namesAPerson()) {
      throw new ApiException(
          HttpStatus.FORBIDDEN, "forbidden", "this needs an operator or approver key");
    }
    return p;
  }

  /** A required text of at most {@code max} characters, as given. */
  public static String requiredText(String value, String field, int max) {
    if (value == null || value.isBlank()) {
      throw ApiException.badRequest("missing_field", field + " is required");
    }
    if (value.length() > max) {
      throw ApiException.badRequest("field_too_long", field + " is longer than " + max);
    }
    return value;
  }
}
