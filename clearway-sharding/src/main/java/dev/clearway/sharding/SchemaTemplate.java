package dev.clearway.sharding;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tables and triggers of a migrated MySQL-family database, as DDL that recreates them under
 * other names: {@code SHOW CREATE TABLE} and {@code information_schema.TRIGGERS}.
 */
final class SchemaTemplate {

  private static final Pattern FOREIGN_KEY =
      Pattern.compile("CONSTRAINT `([^`]+)` FOREIGN KEY .* REFERENCES `([^`]+)`");
  private static final Pattern TABLE_AUTO_INCREMENT = Pattern.compile(" AUTO_INCREMENT=\\d+");

  private record Trigger(String name, String timing, String event, String body) {}

  private final Map<String, String> tables;
  private final Map<String, List<Trigger>> triggers;

  private SchemaTemplate(Map<String, String> tables, Map<String, List<Trigger>> triggers) {
    this.tables = tables;
    this.triggers = triggers;
  }

  /** Reads every base table (views are left out) and trigger of {@code c}'s database. */
  static SchemaTemplate read(Connection c) throws SQLException {
    Map<String, String> tables = new LinkedHashMap<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW FULL TABLES WHERE Table_type = 'BASE TABLE'")) {
      while (rs.next()) {
        tables.put(rs.getString(1), null);
      }
    }
    for (String table : tables.keySet()) {
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SHOW CREATE TABLE `" + table + "`")) {
        rs.next();
        tables.put(table, rs.getString(2));
      }
    }
    Map<String, List<Trigger>> triggers = new LinkedHashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT trigger_name, event_object_table, action_timing, event_manipulation,"
                + " action_statement FROM information_schema.triggers"
                + " WHERE trigger_schema = DATABASE() ORDER BY event_object_table, action_order")) {
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          triggers
              .computeIfAbsent(rs.getString(2), t -> new ArrayList<>())
              .add(new Trigger(rs.getString(1), rs.getString(3), rs.getString(4), rs.getString(5)));
        }
      }
    }
    return new SchemaTemplate(tables, triggers);
  }

  Collection<String> tables() {
    return tables.keySet();
  }

  /**
   * {@code table}'s DDL with the tables of {@code renames} renamed; a foreign key to a table not in
   * {@code present} is left out (it lives in another database); with {@code shard >= 0} the foreign
   * keys are renamed after the table and AUTO_INCREMENT starts at the shard's first id.
   */
  String createTable(String table, Map<String, String> renames, List<String> present, int shard) {
    String ddl = rename(tables.get(table), renames, true);
    String physical = renames.getOrDefault(table, table);
    String suffix = physical.substring(table.length());
    List<String> definitions = new ArrayList<>();
    String[] lines = ddl.split("\n");
    for (int i = 1; i < lines.length - 1; i++) {
      String line = lines[i].replaceAll(",$", "");
      Matcher fk = FOREIGN_KEY.matcher(line);
      if (fk.find()) {
        if (!present.contains(fk.group(2))) {
          continue;
        }
        line = line.replace("`" + fk.group(1) + "`", "`" + fk.group(1) + suffix + "`");
      }
      definitions.add(line);
    }
    String options = TABLE_AUTO_INCREMENT.matcher(lines[lines.length - 1]).replaceAll("");
    if (shard >= 0 && ddl.contains(" AUTO_INCREMENT,")
        || shard >= 0 && ddl.contains(" AUTO_INCREMENT\n")) {
      options = options + " AUTO_INCREMENT=" + ShardKeys.firstId(shard);
    }
    return lines[0].replaceFirst("^CREATE TABLE", "CREATE TABLE IF NOT EXISTS")
        + "\n"
        + String.join(",\n", definitions)
        + "\n"
        + options;
  }

  /** Drop-and-create statements of {@code table}'s triggers, on its physical table. */
  List<String> triggers(String table, Map<String, String> renames, String physical) {
    String suffix = physical.substring(table.length());
    List<String> out = new ArrayList<>();
    for (Trigger t : triggers.getOrDefault(table, List.of())) {
      String name = t.name() + suffix;
      out.add("DROP TRIGGER IF EXISTS `" + name + "`");
      out.add(
          "CREATE TRIGGER `"
              + name
              + "` "
              + t.timing()
              + " "
              + t.event()
              + " ON `"
              + physical
              + "` FOR EACH ROW "
              + rename(t.body(), renames, false));
    }
    return out;
  }

  /**
   * {@code sql} with every table of {@code renames} renamed, outside string literals: backticked
   * names only ({@code quotedOnly}, DDL from SHOW CREATE TABLE) or bare words too (trigger bodies).
   */
  static String rename(String sql, Map<String, String> renames, boolean quotedOnly) {
    if (renames.isEmpty()) {
      return sql;
    }
    String[] parts = sql.split("'", -1);
    for (int i = 0; i < parts.length; i += 2) {
      String part = parts[i];
      for (Map.Entry<String, String> r : renames.entrySet()) {
        part = part.replace("`" + r.getKey() + "`", "`" + r.getValue() + "`");
        if (!quotedOnly) {
          part =
              part.replaceAll(
                  "(?<![\\w.`])" + Pattern.quote(r.getKey()) + "(?![\\w`])",
                  Matcher.quoteReplacement(r.getValue()));
        }
      }
      parts[i] = part;
    }
    return String.join("'", parts);
  }
}
