package dev.clearway.core.statement;

import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Imports one daily statement of one account: hashes the bytes, checks the hash the PSP announced,
 * and streams the parsed lines into the store. A hash that does not match refuses the file before
 * any line is read.
 */
public final class StatementImporter {
  private final StatementStore store;
  private final Map<StatementFormat, StatementParser> parsers;

  public StatementImporter(StatementStore store, Map<StatementFormat, StatementParser> parsers) {
    this.store = Objects.requireNonNull(store, "store");
    this.parsers = Map.copyOf(parsers);
  }

  public StatementFileRecord importStatement(
      String accountRef, LocalDate day, Statement statement) {
    StatementParser parser = parsers.get(statement.format());
    if (parser == null) {
      throw new IllegalArgumentException("no parser for " + statement.format().code());
    }
    String sha256 = digest("SHA-256", statement.bytes());
    StatementStore.Incoming incoming =
        new StatementStore.Incoming(
            accountRef, day, statement.format(), sha256, statement.expectedHash());
    if (statement.expectedHash() != null) {
      String actual = digest(algorithm(statement.hashType()), statement.bytes());
      if (!actual.equalsIgnoreCase(statement.expectedHash())) {
        return store.refuse(
            incoming, statement.hashType() + " of the file is not the announced hash");
      }
    }
    return store.importFile(
        incoming,
        sink -> {
          try (InputStream in = statement.open()) {
            parser.parse(in, sink);
          }
        });
  }

  private static String algorithm(String hashType) {
    return switch (hashType.toUpperCase(Locale.ROOT)) {
      case "SHA1", "SHA-1" -> "SHA-1";
      case "SHA256", "SHA-256" -> "SHA-256";
      default -> throw new IllegalArgumentException("unsupported hash type " + hashType);
    };
  }

  static String digest(String algorithm, byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm, e);
    }
  }
}
