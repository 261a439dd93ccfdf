package dev.clearway.lab.recon;

import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.psp.stripe.StripeBalanceReportParser;
import dev.clearway.psp.wechat.WechatTradeBillParser;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.statement.StatementStores;
import dev.clearway.store.statement.WalletCsvParser;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Fetches and imports the statements of every account-day the run touched: through the adapter's
 * {@code downloadStatement} where the PSP publishes one over its API (the WeChat Pay trade bill,
 * with its announced hash), else from the simulator's statement writer (the Stripe balance report)
 * as a file given by hand. A refused file is counted and fetched again once: the PSP corrected it.
 */
final class ReconStatements {

  /** One statement file in force: whose, which day, its id. */
  record Imported(String account, LocalDate day, long fileId, long lines) {}

  private final ReconRig rig;
  private final StatementImporter importer;
  private final PrintStream err;
  private int refused;

  ReconStatements(
      ReconRig rig, DataSource dataSource, SqlDialect dialect, Clock clock, PrintStream err) {
    this.rig = rig;
    this.importer =
        new StatementImporter(
            StatementStores.create(dataSource, dialect, clock),
            Map.of(
                StatementFormat.WALLET_CSV, new WalletCsvParser(),
                StatementFormat.STRIPE_BALANCE, new StripeBalanceReportParser(),
                StatementFormat.WECHAT_TRADEBILL, new WechatTradeBillParser()));
    this.err = err;
  }

  /** The zone each account's statement day is counted in (WeChat Pay: China Standard Time). */
  static ZoneId zone(ChannelAccount account) {
    return "wechat".equals(account.channel()) ? ZoneId.of("Asia/Shanghai") : ZoneId.of("UTC");
  }

  /**
   * Imports every day of every account from {@code from} to {@code to} (in the account's zone), and
   * for the card account the day after too (where the reversals are).
   */
  List<Imported> importAll(Instant from, Instant to) {
    List<Imported> out = new ArrayList<>();
    for (ChannelAccount account : rig.channels().accounts()) {
      LocalDate first = LocalDate.ofInstant(from, zone(account));
      LocalDate last = LocalDate.ofInstant(to, zone(account));
      if (account.id() == ReconRig.CARD_ACCOUNT) {
        last = last.plusDays(1);
      }
      for (LocalDate day = first; !day.isAfter(last); day = day.plusDays(1)) {
        out.add(importDay(account, day));
      }
    }
    return out;
  }

  /** The imports refused so far. */
  int refused() {
    return refused;
  }

  private Imported importDay(ChannelAccount account, LocalDate day) {
    for (int attempt = 1; ; attempt++) {
      StatementFileRecord file =
          importer.importStatement(account.accountRef(), day, fetch(account, day));
      if (file.status() != StatementFileRecord.Status.REFUSED) {
        return new Imported(account.accountRef(), day, file.id(), file.lineCount());
      }
      refused++;
      err.println(
          "reconcile chaos: statement of "
              + account.accountRef()
              + " for "
              + day
              + " refused at line "
              + file.refusedLine()
              + ": "
              + file.refusedReason());
      if (attempt == 3) {
        throw new IllegalStateException("statement of " + account.accountRef() + " refused");
      }
    }
  }

  private Statement fetch(ChannelAccount account, LocalDate day) {
    PspAdapter adapter = rig.channels().adapter(account.id());
    if (adapter.settlementReportAvailable()) {
      try {
        return adapter.downloadStatement(account.accountRef(), day);
      } catch (UnsupportedOperationException notOverTheApi) {
        // The simulator's writer below.
      }
    }
    if (account.id() != ReconRig.CARD_ACCOUNT) {
      throw new IllegalStateException("no statement source for " + account.accountRef());
    }
    return Statement.unhashed(StatementFormat.STRIPE_BALANCE, rig.card().balanceReport(day));
  }
}
