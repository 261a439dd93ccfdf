package dev.clearway.lab;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The JSON object a command prints as its last line of stdout, as the tests read it. */
public final class LastJson {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private LastJson() {}

  /** The last line of what was printed to {@code out}, parsed. */
  public static JsonNode of(ByteArrayOutputStream out) {
    return of(out.toString(StandardCharsets.UTF_8));
  }

  /** The last line of {@code printed}, parsed. */
  public static JsonNode of(String printed) {
    List<String> lines = printed.lines().toList();
    if (lines.isEmpty()) {
      throw new AssertionError("the command printed nothing");
    }
    return JSON.readTree(lines.get(lines.size() - 1));
  }

  /** The object's property names in the order printed. */
  public static List<String> names(JsonNode json) {
    List<String> names = new ArrayList<>();
    json.propertyNames().forEach(names::add);
    return names;
  }
}
