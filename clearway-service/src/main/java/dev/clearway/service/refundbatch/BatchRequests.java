package dev.clearway.service.refundbatch;

import dev.clearway.core.refundbatch.domain.BatchScope;
import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.ApiKeys.Principal;
import dev.clearway.service.api.OpsCallers;
import dev.clearway.service.api.Role;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/** The checks every batch request shares: who calls, and its bounded fields. */
final class BatchRequests {
  private BatchRequests() {}

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

  /** The scope of a proposal, or 400 with a stable code. */
  static BatchScope scope(BatchProposalRequest body) {
    String merchant = text(body.merchant(), "merchant", 64);
    String scene = text(body.scene(), "scene", 32);
    Instant from = instant(body.paidFrom(), "paidFrom");
    Instant to = instant(body.paidTo(), "paidTo");
    if (from != null && to != null && !from.isBefore(to)) {
      throw ApiException.badRequest("invalid_window", "paidFrom must be before paidTo");
    }
    List<String> keys = body.bizKeys();
    if (keys != null) {
      if (keys.isEmpty() || keys.size() > BatchScope.MAX_KEYS) {
        throw ApiException.badRequest(
            "invalid_biz_keys", "bizKeys lists 1 to " + BatchScope.MAX_KEYS + " keys");
      }
      keys = keys.stream().map(k -> text(k, "bizKeys[]", 160)).toList();
    }
    return new BatchScope(merchant, scene, from, to, keys);
  }

  private static Instant instant(String value, String field) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Instant.parse(value.strip());
    } catch (DateTimeParseException e) {
      throw ApiException.badRequest("invalid_window", field + " must be an ISO-8601 instant");
    }
  }
}
