package dev.clearway.lab.chaos;

import dev.clearway.lab.chaos.FlowSnapshot.FlowRow;
import dev.clearway.lab.chaos.FlowSnapshot.HistoryRow;
import dev.clearway.sim.GrantEntry;
import dev.clearway.sim.LedgerEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes the run's raw facts so that anyone can recompute the invariants without the engine. */
public final class CsvExport {
  private CsvExport() {}

  public static void write(
      Path dir, FlowSnapshot snapshot, List<LedgerEntry> ledger, List<GrantEntry> grants) {
    try {
      Files.createDirectories(dir);
      try (Writer w = open(dir.resolve("flows.csv"))) {
        w.write(
            "flow_id,biz_key,attempt_no,trade_order_no,refund_order_no,status,manual_review,"
                + "review_reason,amount,user_id,scene,merchant_id\n");
        for (FlowRow f : snapshot.flows()) {
          line(
              w,
              f.flowId(),
              f.bizKey(),
              f.attemptNo(),
              f.tradeOrderNo(),
              f.refundOrderNo(),
              f.status(),
              f.manualReview(),
              f.reviewReason(),
              f.amount(),
              f.userId(),
              f.scene(),
              f.merchantId());
        }
      }
      try (Writer w = open(dir.resolve("history.csv"))) {
        w.write("flow_id,from_status,to_status,version\n");
        for (HistoryRow h : snapshot.history()) {
          line(w, h.flowId(), h.fromStatus(), h.toStatus(), h.version());
        }
      }
      try (Writer w = open(dir.resolve("wallet-ledger.csv"))) {
        w.write("kind,order_no,trade_order_no,amount\n");
        for (LedgerEntry e : ledger) {
          line(w, e.kind(), e.orderNo(), e.tradeOrderNo(), e.amount());
        }
      }
      try (Writer w = open(dir.resolve("business-ledger.csv"))) {
        w.write("biz_key,attributed_order_no,user_id,scene,merchant_id\n");
        for (GrantEntry g : grants) {
          line(
              w,
              g.goal().bizKey(),
              g.attributedOrderNo(),
              g.goal().userId(),
              g.goal().scene(),
              g.goal().merchant());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("write CSV files to " + dir, e);
    }
  }

  private static Writer open(Path file) throws IOException {
    return Files.newBufferedWriter(file, StandardCharsets.UTF_8);
  }

  private static void line(Writer w, Object... values) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(escape(values[i]));
    }
    w.write(b.append('\n').toString());
  }

  static String escape(Object value) {
    if (value == null) {
      return "";
    }
    String s = value.toString();
    if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0) {
      return '"' + s.replace("\"", "\"\"") + '"';
    }
    return s;
  }
}
