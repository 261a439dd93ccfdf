package dev.clearway.sim.psp.stripe;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Renders the simulated account's balance transactions of one day as Stripe's balance report CSV:
 * {@code
 * id,type,amount,fee,net,currency,created,source,metadata_attempt_key,refund_metadata_refund_no}. A
 * succeeded payment intent is a {@code charge} (fee 2.9% + 30), a succeeded refund a {@code refund}
 * with a negative amount and no fee; amounts are minor units, {@code created} unix seconds. As in
 * Stripe's itemized reports, {@code source} is Stripe's own id (a refund's {@code re_...}), the
 * payment's metadata attempt key is on every line of the payment, and a refund's line carries its
 * own metadata's {@code refund_no} (empty when the refund was created without one).
 */
final class StripeBalanceReport {
  static final String HEADER =
      "id,type,amount,fee,net,currency,created,source,metadata_attempt_key,"
          + "refund_metadata_refund_no";

  /** One balance transaction, in the order they happened. */
  private record Txn(
      String id,
      String type,
      long amount,
      long fee,
      String currency,
      long created,
      String source,
      String attemptKey,
      String refundNo) {}

  private StripeBalanceReport() {}

  /**
   * A movement the PSP made on its own after settlement (a chargeback, a correction): an {@code
   * adjustment} balance transaction naming the charge's attempt key.
   */
  record Adjustment(String id, long amount, String currency, long created, String attemptKey) {}

  /** Called under the book's lock; {@code [from, to)} in unix seconds. */
  static byte[] render(
      Iterable<SimIntent> intents,
      Iterable<SimRefund> refunds,
      java.util.Map<String, SimIntent> byId,
      long from,
      long to) {
    return render(intents, refunds, byId, List.of(), ref -> 0, no -> false, from, to);
  }

  /**
   * As above, with the adjustments of the account, each charge's fee moved by {@code feeDelta} of
   * its merchant reference (an injected difference; 0 for none), and the refunds whose number is
   * {@code unnamed} listed without it.
   */
  static byte[] render(
      Iterable<SimIntent> intents,
      Iterable<SimRefund> refunds,
      java.util.Map<String, SimIntent> byId,
      Iterable<Adjustment> adjustments,
      java.util.function.ToLongFunction<String> feeDelta,
      java.util.function.Predicate<String> unnamed,
      long from,
      long to) {
    List<Txn> txns = new ArrayList<>();
    for (Adjustment a : adjustments) {
      if (a.created() >= from && a.created() < to) {
        txns.add(
            new Txn(
                a.id(),
                "adjustment",
                a.amount(),
                0,
                a.currency(),
                a.created(),
                a.id(),
                a.attemptKey(),
                null));
      }
    }
    for (SimIntent i : intents) {
      if ("succeeded".equals(i.status) && i.created >= from && i.created < to) {
        txns.add(
            new Txn(
                "txn_" + i.id.substring(3),
                "charge",
                i.amount,
                fee(i.amount) + feeDelta.applyAsLong(i.merchantReference),
                i.currency,
                i.created,
                i.id,
                i.attemptKey,
                null));
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
                intent == null ? null : intent.attemptKey,
                unnamed.test(r.metadataRefundNo) ? null : r.metadataRefundNo));
      }
    }
    txns.sort(Comparator.comparingLong(Txn::created));
    return write(txns);
  }

  private static byte[] write(List<Txn> txns) {
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
          .append(',')
          .append(csv(t.refundNo()))
          .append('\n');
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The report with the net of its first transaction off by one: a malformed line, which an import
   * must refuse. A report without transactions loses its header instead.
   */
  static byte[] corrupt(byte[] report) {
    String text = new String(report, StandardCharsets.UTF_8);
    String[] lines = text.split("\n", -1);
    if (lines.length < 3 || lines[1].isEmpty()) {
      return text.substring(HEADER.length()).getBytes(StandardCharsets.UTF_8);
    }
    String[] f = lines[1].split(",", -1);
    f[4] = Long.toString(Long.parseLong(f[4]) + 1);
    lines[1] = String.join(",", f);
    return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
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
