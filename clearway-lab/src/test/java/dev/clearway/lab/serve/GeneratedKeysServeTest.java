package dev.clearway.lab.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.clearway.service.api.ApiKeys;
import dev.clearway.service.api.OutputCapture;
import dev.clearway.service.api.Role;
import dev.clearway.service.server.GeneratedKeysNotice;
import dev.clearway.store.testing.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code serve} without configured keys generates demo keys for the run: it shows them only on a
 * terminal, loudly marked as demo keys, and otherwise says that they exist without printing them.
 * The keys still work in-process (the demo drives the API with them).
 */
class GeneratedKeysServeTest {

  @Test
  void generatedKeysAreNotPrintedWhenTheOutputIsNotATerminal() throws Exception {
    String url = ((HikariDataSource) TestDatabase.get().dataSource()).getJdbcUrl();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (OutputCapture console = new OutputCapture();
        Serve.Running running =
            Serve.start(
                Serve.Options.defaults().withPort(0).withJdbcUrl(url),
                new PrintStream(printed, true, StandardCharsets.UTF_8))) {
      Map<Role, List<String>> generated = running.context().getBean(ApiKeys.class).generatedKeys();
      assertThat(generated).containsOnlyKeys(Role.MERCHANT, Role.OPERATOR, Role.APPROVER);

      String base = "http://127.0.0.1:" + running.port();
      assertThat(get(base + "/ops/review/flows", generated.get(Role.OPERATOR).get(0)))
          .isEqualTo(200);
      assertThat(get(base + "/v1/payment-flows?bizKey=none", generated.get(Role.MERCHANT).get(0)))
          .isEqualTo(200);

      String text = printed.toString(StandardCharsets.UTF_8);
      assertThat(text)
          .contains("not shown")
          .contains("CLEARWAY_OPERATOR_KEYS")
          .contains("Clearway is serving");
      for (List<String> keys : generated.values()) {
        for (String key : keys) {
          assertThat(text).doesNotContain(key);
          assertThat(console.text()).doesNotContain(key);
        }
      }
    }
  }

  @Test
  void onATerminalTheKeysAreShownOnceAsDemoKeys() {
    ApiKeys keys = new ApiKeys(new EnumMap<>(Role.class));
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    GeneratedKeysNotice.print(
        keys, new PrintStream(printed, true, StandardCharsets.UTF_8), /* terminal= */ true);

    String text = printed.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("DEMO KEYS").contains("this run only");
    keys.generatedKeys().values().forEach(k -> assertThat(text).contains(k.get(0)));
  }

  @Test
  void anOutputOtherThanStandardOutIsNeverATerminal() {
    assertThat(
            GeneratedKeysNotice.isTerminal(
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
        .isFalse();
  }

  private static int get(String url, String key) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer " + key)
                .GET()
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }
}
