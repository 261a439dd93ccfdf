package dev.clearway.sim.psp.stripe;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Renders the simulated account's balance transactions of one day as Stripe's balance report CSV:
 * {@code id,type,amount,fee,net,currency,created,source,metadata_attempt_key}. A succeeded payment
 * intent is a {@code charge} (fee 2.9% + 30), a succeeded refund a {@code refund} with a negative
 * amount and no fee; amounts are minor units, {@code created} unix seconds.
 */
final class StripeBalanceReport {
  static final String HEADER =
      "id,type,amount,fee,net,currency,created,source,metadata_attempt_key";

  /** One balance transaction, in the order they happened. */
  private record Txn(
      String id,
      String type,
      long amount,
      long fee,
      String currency,
      long created,
      String source,
      String attemptKey) {}

  private StripeBalanceReport() {}

  /** Called under the book's lock; {@code [from, to)} in unix seconds. */
  static byte[] render(
      Iterable<SimIntent> intents,
      Iterable<SimRefund> refunds,
      java.util.Map<String, SimIntent> byId,
      long from,
      long to) {
    List<Txn> txns = new ArrayList<>();
    for (SimIntent i : intents) {
      if ("succeeded".equals(i.status) && i.created >= from && i.created < to) {
        txns.add(
            new Txn(
                "txn_" + i.id.substring(3),
                "charge",
                i.amount,
                fee(i.amount),
                i.currency,
                i.created,
                i.id,
                i.attemptKey));
      }
    }
    for (SimRefund r : refunds) {
      if ("succeeded".equals(r.status) && r.created >= from && r.created < to) {
        SimIntent intent = byId.get(r.paymentIntent);
        txns.add(
            new Txn(
                "txn_" + r.id.substring(3),
                "refund",
                -r.amount,
                0,
                r.currency,
                r.created,
                r.id,
                intent == null ? null : intent.attemptKey));
      }
    }
    txns.sort(Comparator.comparingLong(Txn::created));
    StringBuilder out = new StringBuilder(HEADER).append('\n');
    for (Txn t : txns) {
      out.append(t.id())
          .append(',')
          .append(t.type())
          .append(',')
          .append(t.amount())
          .append(',')
          .append(t.fee())
          .append(',')
          .append(t.amount() - t.fee())
          .append(',')
          .append(t.currency())
          .append(',')
          .append(t.created())
          .append(',')
          .append(t.source())
          .append(',')
          .append(csv(t.attemptKey()))
          .append('\n');
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** 2.9% + 30 minor units, rounded half up. */
  static long fee(long amount) {
    return (amount * 29 + 500) / 1000 + 30;
  }

  private static String csv(String value) {
    if (value == null) {
      return "";
    }
    if (value.contains(",") || value.contains("\"")) {
      return "\"" + value.replace("\"", "\"\"") + "\"";
    }
    return value;
  }
}
