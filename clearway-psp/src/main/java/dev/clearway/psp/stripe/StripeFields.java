package dev.clearway.psp.stripe;

import tools.jackson.databind.JsonNode;

/** Null-safe reads of Stripe JSON objects. */
final class StripeFields {

  private StripeFields() {}

  /** The text of {@code field}, or null when it is missing, null or not a scalar. */
  static String text(JsonNode node, String field) {
    if (node == null) {
      return null;
    }
    JsonNode value = node.get(field);
    if (value == null || value.isNull() || value.isContainer()) {
      return null;
    }
    return value.asString();
  }
}
