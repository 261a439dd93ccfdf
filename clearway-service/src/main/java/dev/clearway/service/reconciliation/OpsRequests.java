package dev.clearway.service.reconciliation;

import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.ApiKeys.Principal;
import dev.clearway.service.api.OpsCallers;
import dev.clearway.service.api.Role;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;
import java.util.function.Function;

/** The checks every reconciliation request shares: who calls, and its bounded text and enums. */
final class OpsRequests {
  private OpsRequests() {}

  /** The caller, who must hold {@code needed}'s key (403 {@code forbidden} otherwise). */
  static Principal principal(HttpServletRequest request, Role needed) {
    return OpsCallers.principal(request, needed);
  }

  /** The caller, who must be a person (an operator or an approver). */
  static Principal person(HttpServletRequest request) {
    return OpsCallers.person(request);
  }

  /** A required text of at most {@code max} characters. */
  static String text(String value, String field, int max) {
    return OpsCallers.requiredText(value, field, max).strip();
  }

  /**
   * An optional filter: null when absent, 400 {@code invalid_parameter} when not one of the enum.
   */
  static <E extends Enum<E>> E optional(
      String value, String name, Class<E> type, Function<String, E> parse) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      return parse.apply(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(
          "invalid_parameter", name + " must be one of " + names(type.getEnumConstants()));
    }
  }

  private static String names(Enum<?>[] values) {
    StringBuilder b = new StringBuilder();
    for (Enum<?> v : values) {
      b.append(b.length() == 0 ? "" : ", ").append(v.name());
    }
    return b.toString();
  }
}
