package dev.clearway.lab.cli;

import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.core.statement.StatementParser;
import dev.clearway.psp.stripe.StripeBalanceReportParser;
import dev.clearway.psp.wechat.WechatTradeBillParser;
import dev.clearway.store.Database;
import dev.clearway.store.statement.JdbcStatementStore;
import dev.clearway.store.statement.WalletCsvParser;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code clearway reconcile}: imports one statement file by hand for an account and day, and prints
 * one JSON line: the file id, its status (IMPORTED, REFUSED, or the file already on record for the
 * same bytes), its line count and SHA-256. Exit 0 when the file is on record as imported, 1 when it
 * was refused.
 */
@Command(
    name = "reconcile",
    mixinStandardHelpOptions = true,
    description = "Import a PSP or wallet statement file for one account and day.")
public final class ReconcileCommand implements Callable<Integer> {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private final PrintStream out;

  @Option(names = "--account", required = true, paramLabel = "ID", description = "account ref")
  String account;

  @Option(names = "--date", required = true, paramLabel = "YYYY-MM-DD", description = "the day")
  LocalDate date;

  @Option(names = "--file", required = true, paramLabel = "PATH", description = "the statement")
  Path file;

  @Option(
      names = "--format",
      required = true,
      paramLabel = "FORMAT",
      description = "wallet-csv, stripe-balance or wechat-tradebill")
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

  public ReconcileCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws IOException {
    StatementFormat parsedFormat = StatementFormat.fromCode(format);
    if ((expectedHash == null) != (hashType == null)) {
      throw new IllegalArgumentException("--expected-hash and --hash-type go together");
    }
    Statement statement =
        new Statement(parsedFormat, Files.readAllBytes(file), expectedHash, hashType);
    try (Database db = jdbcUrl == null ? Database.embedded(2) : Database.connect(jdbcUrl, 2)) {
      StatementImporter importer =
          new StatementImporter(
              new JdbcStatementStore(db.dataSource(), Clock.systemUTC()), parsers());
      StatementFileRecord record = importer.importStatement(account, date, statement);
      out.println(JSON.writeValueAsString(json(record)));
      return record.status() == StatementFileRecord.Status.REFUSED ? 1 : 0;
    }
  }

  static Map<StatementFormat, StatementParser> parsers() {
    return Map.of(
        StatementFormat.WALLET_CSV, new WalletCsvParser(),
        StatementFormat.STRIPE_BALANCE, new StripeBalanceReportParser(),
        StatementFormat.WECHAT_TRADEBILL, new WechatTradeBillParser());
  }

  private static Map<String, Object> json(StatementFileRecord record) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("fileId", record.id());
    json.put("status", record.status().name());
    json.put("lines", record.lineCount());
    json.put("sha256", record.sha256());
    if (record.status() == StatementFileRecord.Status.REFUSED) {
      json.put("refusedLine", record.refusedLine());
      json.put("refusedReason", record.refusedReason());
    }
    return json;
  }
}
