package dev.clearway.lab.cli;

import dev.clearway.core.reconciliation.engine.ReconciliationJob;
import dev.clearway.core.reconciliation.engine.RepairPass;
import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.core.statement.StatementParser;
import dev.clearway.core.statement.StatementStore;
import dev.clearway.lab.reconcile.FixedTerms;
import dev.clearway.lab.reconcile.LabRecon;
import dev.clearway.psp.stripe.StripeBalanceReportParser;
import dev.clearway.psp.wechat.WechatTradeBillParser;
import dev.clearway.store.Database;
import dev.clearway.store.statement.StatementStores;
import dev.clearway.store.statement.WalletCsvParser;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code clearway reconcile}: reconciles one account-day on demand. With {@code --file} it first
 * imports that statement the way a download is imported; without it, it reconciles the file in
 * force for the day. Then it runs the reconciliation job for the account-day and the repair pass
 * over what is due, and prints one JSON line: the file (id, status, line count, SHA-256), the run
 * (outcome and counts), the day's differences by class and by state, and what the repair pass did.
 * Exit 0 when the file is on record as imported and the run ended DONE, 1 otherwise (a refused
 * file, no file in force, a run held elsewhere or failed).
 */
@Command(
    name = "reconcile",
    mixinStandardHelpOptions = true,
    description =
        "Import a PSP or wallet statement file for one account and day (or take the one in force),"
            + " reconcile the day and run the repairs that are due.")
public final class ReconcileCommand implements Callable<Integer> {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private final PrintStream out;

  @Option(names = "--account", required = true, paramLabel = "ID", description = "account ref")
  String account;

  @Option(names = "--date", required = true, paramLabel = "YYYY-MM-DD", description = "the day")
  LocalDate date;

  @Option(
      names = "--file",
      paramLabel = "PATH",
      description = "a statement to import first (default: the file in force for the day)")
  Path file;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "wallet-csv, stripe-balance or wechat-tradebill (with --file)")
  String format;

  @Option(
      names = "--expected-hash",
      paramLabel = "HEX",
      description = "the hash the PSP announced (with --hash-type)")
  String expectedHash;

  @Option(names = "--hash-type", paramLabel = "SHA1|SHA256", description = "its algorithm")
  String hashType;

  @Option(
      names = "--jdbc-url",
      paramLabel = "URL",
      description = "an existing PostgreSQL (default: a throwaway embedded one)")
  String jdbcUrl;

  @Option(
      names = "--settlement-window",
      defaultValue = "P1D",
      paramLabel = "DURATION",
      description = "how long a movement may take to reach the statement (ISO-8601)")
  Duration settlementWindow;

  @Option(
      names = "--fee-ppm",
      defaultValue = "0",
      description = "the account's fee in parts per million")
  long feePpm;

  @Option(names = "--fixed-fee", defaultValue = "0", description = "fixed fee per charge, minor")
  long fixedFee;

  @Option(names = "--currency", defaultValue = "CNY", description = "the account's currency")
  String currency;

  @Option(names = "--zone", defaultValue = "UTC", description = "the zone of the statement day")
  ZoneId zone;

  @Option(
      names = "--wallet-account",
      defaultValue = "wallet",
      description = "the account of flows paid through the plain wallet")
  String walletAccount;

  public ReconcileCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws IOException {
    Statement statement = statement();
    try (Database db = jdbcUrl == null ? Database.embedded(4) : Database.connect(jdbcUrl, 4)) {
      Clock clock = Clock.systemUTC();
      StatementStore store = StatementStores.create(db.dataSource(), db.dialect(), clock);
      Optional<StatementFileRecord> record =
          statement == null
              ? store.current(account, date)
              : Optional.of(
                  new StatementImporter(store, parsers())
                      .importStatement(account, date, statement));
      ReconcileJson json = new ReconcileJson(record.orElse(null));
      if (record.isEmpty() || record.get().status() == StatementFileRecord.Status.REFUSED) {
        out.println(JSON.writeValueAsString(json.fields()));
        return 1;
      }
      LabRecon recon =
          new LabRecon(
              db,
              new FixedTerms(settlementWindow, feePpm, fixedFee, currency, zone),
              walletAccount,
              clock);
      ReconciliationJob.Result run = recon.job().run(account, date);
      RepairPass.Round repairs = recon.repairPass().runUntilIdle(50);
      json.run(run);
      json.differences(
          recon.differencesByClass(account, date), recon.differencesByState(account, date));
      json.repairs(repairs);
      out.println(JSON.writeValueAsString(json.fields()));
      return run.outcome() == ReconciliationJob.Outcome.DONE ? 0 : 1;
    }
  }

  /** The statement given with {@code --file}, or null to reconcile the file in force. */
  private Statement statement() throws IOException {
    if ((expectedHash == null) != (hashType == null)) {
      throw new IllegalArgumentException("--expected-hash and --hash-type go together");
    }
    if (file == null) {
      if (format != null || expectedHash != null) {
        throw new IllegalArgumentException("--format and --expected-hash go with --file");
      }
      return null;
    }
    if (format == null) {
      throw new IllegalArgumentException("--file needs --format");
    }
    return new Statement(
        StatementFormat.fromCode(format), Files.readAllBytes(file), expectedHash, hashType);
  }

  static Map<StatementFormat, StatementParser> parsers() {
    return Map.of(
        StatementFormat.WALLET_CSV, new WalletCsvParser(),
        StatementFormat.STRIPE_BALANCE, new StripeBalanceReportParser(),
        StatementFormat.WECHAT_TRADEBILL, new WechatTradeBillParser());
  }
}
