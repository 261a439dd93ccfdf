package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;

/**
 * Reads an ops list from its first page to its last by following {@code nextCursor}, checking the
 * page shape on the way: {@code {items, nextCursor}}, at most 100 items (or the path's {@code
 * limit}), every page but the last full, the last without a cursor.
 */
final class Paging {
  private Paging() {}

  /** Every item of the list at {@code path} (a page at the top of each answer). */
  static List<JsonNode> all(RunningApi api, String key, String path) {
    return all(api, key, path, UnaryOperator.identity());
  }

  /** Every item of the list found in each answer by {@code pageOf}. */
  static List<JsonNode> all(
      RunningApi api, String key, String path, UnaryOperator<JsonNode> pageOf) {
    List<JsonNode> items = new ArrayList<>();
    java.util.regex.Matcher limit = java.util.regex.Pattern.compile("limit=(\\d+)").matcher(path);
    int size = limit.find() ? Integer.parseInt(limit.group(1)) : 100;
    String cursor = null;
    for (int pages = 0; pages < 1_000; pages++) {
      String url =
          cursor == null ? path : path + (path.contains("?") ? "&" : "?") + "cursor=" + cursor;
      RunningApi.Answer answer = api.call("GET", url).bearer(key).send();
      assertThat(answer.status()).as("%s: %s", url, answer).isEqualTo(200);
      JsonNode page = pageOf.apply(answer.json());
      assertThat(page.has("items") && page.has("nextCursor")).as("%s: %s", url, page).isTrue();
      JsonNode rows = page.get("items");
      assertThat(rows.size()).as(url).isLessThanOrEqualTo(size);
      rows.forEach(items::add);
      if (page.get("nextCursor").isNull()) {
        return items;
      }
      assertThat(rows.size()).as("a page before the last is full: %s", url).isEqualTo(size);
      cursor = page.get("nextCursor").asString();
    }
    throw new AssertionError("more than 1,000 pages at " + path);
  }

  /** The long values of {@code field} of every item, in list order. */
  static List<Long> longs(List<JsonNode> items, String field) {
    return items.stream().map(i -> i.get(field).asLong()).toList();
  }

  /** Asserts that {@code path} refuses a bad cursor and a limit out of range with stable codes. */
  static void refusesBadCursorAndLimit(RunningApi api, String key, String path) {
    String sep = path.contains("?") ? "&" : "?";
    for (String bad : List.of("cursor=x", "cursor=-3", "cursor=1_", "cursor=12%3A00")) {
      RunningApi.Answer a = api.call("GET", path + sep + bad).bearer(key).send();
      assertThat(a.status()).as("%s%s%s: %s", path, sep, bad, a).isEqualTo(400);
      assertThat(a.code()).as("%s%s%s", path, sep, bad).isEqualTo("invalid_cursor");
    }
    for (String bad : List.of("limit=0", "limit=101", "limit=-1")) {
      RunningApi.Answer a = api.call("GET", path + sep + bad).bearer(key).send();
      assertThat(a.status()).as("%s%s%s: %s", path, sep, bad, a).isEqualTo(400);
      assertThat(a.code()).as("%s%s%s", path, sep, bad).isEqualTo("invalid_parameter");
    }
  }
}
