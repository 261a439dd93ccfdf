package dev.clearway.sharding;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * ShardingSphere's SQL log ({@code props.sql-show}) captured from standard error while an action
 * runs: per logic statement, the physical databases and tables its actual statements reached.
 */
final class SqlLog {

  /** One logic statement and the routes ("ds_1 ::: SELECT … FROM t_0 …") it ran as. */
  record Routed(String logic, List<String> actual) {

    /** The distinct physical tables (database and table suffix) the statement reached. */
    long shards() {
      return actual.stream().map(Routed::node).distinct().count();
    }

    private static String node(String actual) {
      String ds = actual.substring(0, actual.indexOf(" :::")).strip();
      var m = java.util.regex.Pattern.compile("\\b[a-z_]+_(\\d)\\b").matcher(actual);
      return ds + "/" + (m.find(actual.indexOf(":::")) ? m.group() : "?");
    }
  }

  private SqlLog() {}

  /** Runs {@code action} and returns the statements it logged. */
  static synchronized <T> List<Routed> capture(Supplier<T> action) {
    PrintStream original = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setErr(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      action.get();
    } finally {
      System.setErr(original);
    }
    return parse(out.toString(StandardCharsets.UTF_8));
  }

  static List<Routed> parse(String log) {
    List<Routed> statements = new ArrayList<>();
    boolean inActual = false;
    for (String line : log.split("\n")) {
      int logic = line.indexOf("Logic SQL: ");
      int actual = line.indexOf("Actual SQL: ");
      if (logic >= 0) {
        statements.add(new Routed(line.substring(logic + 11).strip(), new ArrayList<>()));
        inActual = false;
      } else if (actual >= 0 && !statements.isEmpty()) {
        statements.get(statements.size() - 1).actual().add(line.substring(actual + 12).strip());
        inActual = true;
      } else if (line.contains("] INFO ")
          || line.contains("] WARN ")
          || line.contains("] ERROR ")) {
        inActual = false;
      } else if (inActual) {
        List<String> routes = statements.get(statements.size() - 1).actual();
        routes.set(routes.size() - 1, routes.get(routes.size() - 1) + " " + line.strip());
      }
    }
    return statements;
  }
}
