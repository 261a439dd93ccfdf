package dev.clearway.lab.recon;

import dev.clearway.lab.chaos.CsvExport;
import dev.clearway.lab.chaos.FlowSnapshot;
import dev.clearway.sim.GrantEntry;
import dev.clearway.sim.psp.PspCharge;
import dev.clearway.sim.psp.PspInjections.Injected;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.sql.DataSource;

/**
 * Writes the run's raw facts: the files every chaos run writes (flows, their history, the business
 * ledger), the PSPs' ledgers, what was injected, and {@code differences.csv}: every difference
 * reconciliation recorded, with its state after the repairs.
 */
final class ReconCsv {
  private ReconCsv() {}

  static void write(
      Path dir,
      DataSource dataSource,
      List<GrantEntry> grants,
      List<PspCharge> ledger,
      List<Injected> injected,
      List<ReconTally.FoundDifference> differences) {
    CsvExport.write(dir, FlowSnapshot.read(dataSource), List.of(), grants);
    try {
      try (Writer w = open(dir.resolve("psp-ledger.csv"))) {
        w.write(
            "account,idempotency_key,merchant_reference,provider_payment_id,amount,status,"
                + "refunded\n");
        for (PspCharge c : ledger) {
          line(
              w,
              c.account(),
              c.idempotencyKey(),
              c.merchantReference(),
              c.providerPaymentId(),
              c.amount(),
              c.status(),
              c.refunded());
        }
      }
      try (Writer w = open(dir.resolve("injected.csv"))) {
        w.write("class,key\n");
        for (Injected i : injected) {
          line(w, i.kind(), i.key());
        }
      }
      try (Writer w = open(dir.resolve("differences.csv"))) {
        w.write(
            "id,class,account,statement_day,trade_order_no,refund_order_no,state,repair_kind,"
                + "statement_amount,local_amount,detail\n");
        for (ReconTally.FoundDifference d : differences) {
          line(
              w,
              d.id(),
              d.kind(),
              d.account(),
              d.statementDay(),
              d.tradeOrderNo(),
              d.refundOrderNo(),
              d.state(),
              d.repairKind(),
              d.statementAmount(),
              d.localAmount(),
              d.detail());
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
      String s = values[i] == null ? "" : values[i].toString();
      if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0) {
        s = '"' + s.replace("\"", "\"\"") + '"';
      }
      b.append(s);
    }
    w.write(b.append('\n').toString());
  }
}
