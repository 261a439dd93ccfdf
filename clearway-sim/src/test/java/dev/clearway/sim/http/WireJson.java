package dev.clearway.sim.http;

import java.util.Map;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Reads the simulator's answers in tests with a plain Jackson mapper, not the simulator's own. */
final class WireJson {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private WireJson() {}

  static Map<String, Object> parse(String text) {
    return MAPPER.readValue(text, new TypeReference<Map<String, Object>>() {});
  }

  static Map<String, Object> parse(byte[] raw) {
    return MAPPER.readValue(raw, new TypeReference<Map<String, Object>>() {});
  }
}
