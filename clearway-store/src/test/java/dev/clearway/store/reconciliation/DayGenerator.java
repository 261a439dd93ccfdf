package dev.clearway.store.reconciliation;

import static dev.clearway.store.reconciliation.ReconFixture.DAY;
import static dev.clearway.store.reconciliation.ReconFixture.T0;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One account-day of local payments and its statement, drawn from a seed: mostly payments whose
 * line agrees, and among them every kind of difference a charge or refund line can show, lines on
 * the neighbouring day's file, and settlement rows written before the run. All flows are 500 EUR.
 */
final class DayGenerator {
  private static final long ACCOUNT_ID = 1;
  private static final String[] AGREEING = {"BIZ_SUCCESS", "REFUNDING", "REFUNDED"};

  private final ReconFixture fx;
  private final Random random;
  private final long fee;
  private long fileId;
  private long nextDayFile;
  private long lineNo;
  private long nextDayLineNo;
  private final List<String> charged = new ArrayList<>();

  DayGenerator(ReconFixture fx, Random random, long fee) {
    this.fx = fx;
    this.random = random;
    this.fee = fee;
  }

  void write(String account) {
    fx.account(ACCOUNT_ID, account);
    fileId = fx.file(account, DAY, "IMPORTED");
    nextDayFile = fx.file(account, DAY.plusDays(1), "IMPORTED");
    int payments = 40 + random.nextInt(40);
    for (int i = 0; i < payments; i++) {
      payment("T" + i);
    }
  }

  private void payment(String trade) {
    int shape = random.nextInt(20);
    Instant at =
        shape == 17
            ? T0.plus(Duration.ofDays(1)).minusSeconds(1 + random.nextInt(3000))
            : T0.plusSeconds(600 + random.nextInt(80_000));
    String status = shape < 10 ? AGREEING[random.nextInt(3)] : other(shape);
    long flowId = fx.flow(trade, status, at);
    String key = "k-" + trade;
    fx.attempt(trade, 1, ACCOUNT_ID, key, status.equals("WAIT_PAY") ? "UNKNOWN" : "SUCCEEDED", at);
    charged.add(trade);
    String lineKey = random.nextBoolean() ? key : null;
    switch (shape) {
      case 10 -> charge(trade, lineKey, 501, fee, at);
      case 11 -> charge(trade, lineKey, 500, fee - 1, at);
      case 12 -> {
        charge(trade, lineKey, 500, fee, at);
        fx.exec(
            "UPDATE statement_line SET currency = 'USD' WHERE file_id = "
                + fileId
                + " AND line_no = "
                + lineNo);
      }
      case 13 -> {} // charged locally, not on the statement
      case 14 -> charge("X" + trade, null, 500, fee, at); // unknown to the local side
      case 15 ->
          charge(
              trade,
              charged.isEmpty() ? key : "k-" + charged.get(random.nextInt(charged.size())),
              500,
              fee,
              at);
      case 16 -> {
        charge(trade, lineKey, 500, fee, at);
        charge(trade, lineKey, random.nextBoolean() ? 500 : 499, fee, at);
      }
      case 17 -> {
        nextDayLineNo++;
        fx.line(
            nextDayFile,
            nextDayLineNo,
            "CHARGE",
            trade,
            null,
            lineKey,
            500,
            fee,
            at.plusSeconds(60));
      }
      default -> charge(trade, lineKey, 500, fee, at);
    }
    if (random.nextInt(4) == 0) {
      fx.update(
          "INSERT INTO payment_settlement (trade_order_no, status, version, updated_at)"
              + " VALUES (?, ?, 0, ?)",
          trade,
          random.nextBoolean() ? "MISMATCH" : random.nextBoolean() ? "UNSETTLED" : "SETTLED",
          ReconFixture.ts(T0));
    }
    if (random.nextInt(3) == 0) {
      refunds(flowId, trade, at);
    }
  }

  private String other(int shape) {
    return switch (random.nextInt(5)) {
      case 0 -> "PAYING";
      case 1 -> "CLOSED";
      case 2 -> "PAYED";
      case 3 -> "WAIT_PAY";
      default -> AGREEING[random.nextInt(3)];
    };
  }

  /** One or two partial refunds; each on the statement as it is, with another amount, or absent. */
  private void refunds(long flowId, String trade, Instant at) {
    int count = 1 + random.nextInt(2);
    for (int seq = 1; seq <= count; seq++) {
      Instant refunded = at.plusSeconds(60 + random.nextInt(600));
      String state = random.nextInt(4) == 0 ? "PROCESSING" : "SUCCESS";
      fx.refundOrder(flowId, trade, seq, "AFTER_SALE", state, 200, refunded);
      String refundNo = "a_" + trade + "_" + seq;
      switch (random.nextInt(4)) {
        case 0 -> {} // not on the statement
        case 1 -> refundLine(trade, refundNo, 201, refunded);
        default -> refundLine(trade, refundNo, 200, refunded);
      }
    }
  }

  private void charge(String trade, String key, long amount, long lineFee, Instant at) {
    lineNo++;
    fx.line(fileId, lineNo, "CHARGE", trade, null, key, amount, lineFee, at.plusSeconds(30));
  }

  private void refundLine(String trade, String refundNo, long amount, Instant at) {
    lineNo++;
    fx.line(fileId, lineNo, "REFUND", trade, refundNo, null, -amount, 0, at.plusSeconds(30));
  }
}
