package dev.clearway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The command line's answers to bad usage (exit 2, a message on stderr) and to help (exit 0). */
class ClearwayMainTest {

  private static CommandRun run(String... args) {
    return CommandRun.of(args);
  }

  @Test
  void anUnknownOptionExitsTwoNamingIt() {
    CommandRun o = run("chaos", "--no-such-option", "1");

    assertThat(o.exit()).isEqualTo(2);
    assertThat(o.err()).contains("--no-such-option").contains("Usage:");
  }

  @Test
  void anUnknownCommandExitsTwoNamingIt() {
    CommandRun o = run("frobnicate");

    assertThat(o.exit()).isEqualTo(2);
    assertThat(o.err()).contains("frobnicate");
  }

  @Test
  void aValueOfTheWrongTypeExitsTwo() {
    CommandRun o = run("bench", "drain", "--qps", "many");

    assertThat(o.exit()).isEqualTo(2);
    assertThat(o.err()).contains("--qps").contains("many");
  }

  @Test
  void aValueOutOfRangeExitsTwoWithTheRule() {
    CommandRun o = run("chaos", "--fault-rate", "1.5");

    assertThat(o.exit()).isEqualTo(2);
    assertThat(o.err()).contains("--fault-rate must be within [0, 1]");
  }

  @Test
  void helpListsEveryDocumentedOption() {
    assertThat(run("--help").out()).contains("demo", "chaos", "bench", "serve", "sim");
    assertThat(run("sim", "--help").out())
        .contains("--port", "--fault-rate", "--seed", "--callback-url");
    assertThat(run("chaos", "--help"))
        .satisfies(o -> assertThat(o.exit()).isZero())
        .satisfies(
            o ->
                assertThat(o.out())
                    .contains(
                        "--payments",
                        "--seed",
                        "--fault-rate",
                        "--concurrency",
                        "--out",
                        "--jdbc-url",
                        "channels"));
    assertThat(run("serve", "--help").out())
        .contains(
            "--port",
            "--jdbc-url",
            "--wallet-url",
            "--business-url",
            "--business-secret",
            "--channels");
    assertThat(run("bench", "--help").out())
        .contains("--payments", "--concurrency", "--jdbc-url", "--json", "drain");
    assertThat(run("bench", "drain", "--help").out()).contains("--backlog", "--qps", "--json");
    assertThat(run("bench", "archive", "--help").out())
        .contains("--archived-rows", "--hot-rows", "--payments", "--json");
    assertThat(run("chaos", "--help").out()).contains("--archive-every-ms");
    assertThat(run("demo", "--help").out()).contains("--exit-after", "--port");
    assertThat(run("help", "chaos").exit()).isZero();
  }
}
