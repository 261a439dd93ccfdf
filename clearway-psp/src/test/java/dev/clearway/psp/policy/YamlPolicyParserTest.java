package dev.clearway.psp.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyProblem;
import dev.clearway.core.channel.policy.PolicyRejected;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.PolicyValidator;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class YamlPolicyParserTest {
  private final YamlPolicyParser parser = new YamlPolicyParser();

  private static final String SEED_EXAMPLE =
      """
      version: recovery-policy-2026-09-01
      rules:
        - match: {channel: stripe, payment_method: card, operation: create}
          strategies: [idempotent_replay, retrieve, wait_webhook]
          delays: [10s, 30s, 2m, 10m, 30m]
          max_unknown_age: 2h
          query_qps: 20
          query_concurrency: 8
        - match: {channel: local_bank, payment_method: bank_transfer, operation: create}
          strategies: [wait_webhook, merchant_reference_search, reconciliation]
          delays: [5m, 30m, 2h, 24h]
          max_unknown_age: 72h
          query_qps: 2
          query_concurrency: 1
      """;

  @Test
  void theDefaultFileParsesAndValidatesAgainstTheShippedChannels() throws PolicyRejected {
    RecoveryPolicy policy = parser.parse(DefaultRecoveryPolicy.text());

    assertThat(new PolicyValidator().validate(policy, ChannelCapabilities.all())).isEmpty();
    assertThat(policy.rules()).hasSize(4);
    PolicyRule stripeCreate = policy.ruleFor("stripe", "card", Operation.CREATE).orElseThrow();
    assertThat(stripeCreate.strategies())
        .containsExactly(RecoveryStrategy.IDEMPOTENT_REPLAY, RecoveryStrategy.RETRIEVE);
    assertThat(policy.ruleFor("stripe", "card", Operation.REFUND).orElseThrow().strategies())
        .containsExactly(RecoveryStrategy.IDEMPOTENT_REPLAY);
    assertThat(policy.ruleFor("wechat", "wallet", Operation.CREATE).orElseThrow().strategies())
        .containsExactly(RecoveryStrategy.MERCHANT_REFERENCE_SEARCH, RecoveryStrategy.WAIT_WEBHOOK);
    assertThat(policy.ruleFor("wechat", "wallet", Operation.REFUND).orElseThrow().strategies())
        .containsExactly(RecoveryStrategy.MERCHANT_REFERENCE_SEARCH);
  }

  @Test
  void theSeedExampleParsesWithEveryField() throws PolicyRejected {
    RecoveryPolicy policy = parser.parse(SEED_EXAMPLE);

    assertThat(policy.version()).isEqualTo("recovery-policy-2026-09-01");
    PolicyRule bank = policy.rules().get(1);
    assertThat(bank.match().channel()).isEqualTo("local_bank");
    assertThat(bank.match().paymentMethod()).isEqualTo("bank_transfer");
    assertThat(bank.delays())
        .containsExactly(
            Duration.ofMinutes(5),
            Duration.ofMinutes(30),
            Duration.ofHours(2),
            Duration.ofHours(24));
    assertThat(bank.maxUnknownAge()).isEqualTo(Duration.ofHours(72));
    assertThat(bank.queryQps()).isEqualTo(2);
    assertThat(bank.queryConcurrency()).isEqualTo(1);
    // Parsing is schema only; the capability check refuses both problems of this file.
    assertThat(new PolicyValidator().validate(policy, ChannelCapabilities.all()))
        .extracting(PolicyProblem::code)
        .containsExactly("strategy_not_supported", "unknown_channel");
  }

  @Test
  void allDurationUnits() throws PolicyRejected {
    RecoveryPolicy policy =
        parser.parse(rule("delays: [500ms, 10s, 2m, 2h, 1d]", "max_unknown_age: 3d"));
    assertThat(policy.rules().get(0).delays())
        .containsExactly(
            Duration.ofMillis(500),
            Duration.ofSeconds(10),
            Duration.ofMinutes(2),
            Duration.ofHours(2),
            Duration.ofDays(1));
  }

  @Test
  void schemaErrorsCarryTheirCodeAndPath() {
    assertProblem(rule("retries: 3"), "unknown_key", "rules[0].retries", 0);
    assertProblem(
        SEED_EXAMPLE.replace("    query_concurrency: 1\n", "").replace("query_concurrency: 1", ""),
        "missing_key",
        "rules[1].query_concurrency",
        1);
    assertProblem(rule("query_qps: \"20\""), "bad_type", "rules[0].query_qps", 0);
    assertProblem(rule("delays: [10s, 10x]"), "bad_duration", "rules[0].delays[1]", 0);
    assertProblem(rule("delays: [10s, 15]"), "bad_duration", "rules[0].delays[1]", 0);
    assertProblem(rule("max_unknown_age: -2h"), "bad_duration", "rules[0].max_unknown_age", 0);
    assertProblem(
        rule("strategies: [retrieve, poll_harder]"), "bad_strategy", "rules[0].strategies[1]", 0);
    assertProblem(
        rule("match: {channel: stripe, payment_method: card, operation: capture}"),
        "bad_operation",
        "rules[0].match.operation",
        0);
    assertProblem("version: v1\nrules: {}\n", "bad_type", "rules", -1);
    assertProblem("rules: []\n", "missing_key", "version", -1);
    assertProblem("- just\n- a list\n", "bad_type", "(root)", -1);
    assertProblem("version: v1\nrules: []\nowner: me\n", "unknown_key", "owner", -1);
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    String text =
        """
        version: v1
        rules:
          - match: {channel: stripe, payment_method: card, operation: create}
            strategies: [retrieve]
            delays: [10s]
            max_unknown_age: 1h
            query_qps: 5
            query_concurrency: 2
          - match: {channel: stripe, payment_method: card, operation: refund}
            strategies: [nope]
            delays: [1 minute]
            max_unknown_age: 1h
            query_qps: many
            query_concurrency: 2
        """;
    PolicyRejected e = catchThrowableOfType(() -> parser.parse(text), PolicyRejected.class);
    assertThat(e.problems())
        .extracting(PolicyProblem::message)
        .containsExactly(
            "rules[1].strategies[0]: expected one of idempotent_replay, retrieve,"
                + " merchant_reference_search, wait_webhook, reconciliation",
            "rules[1].delays[0]: expected a duration such as 500ms, 10s, 2m, 2h or 1d",
            "rules[1].query_qps: expected a whole number");
    assertThat(e.code()).isEqualTo("bad_strategy");
  }

  @Test
  void yamlSyntaxErrorsNameTheLineButNotTheText() {
    String text = "version: v1\nrules:\n  - match: {channel: sk_live_secret\n";
    PolicyRejected e = catchThrowableOfType(() -> parser.parse(text), PolicyRejected.class);
    assertThat(e.code()).isEqualTo("yaml_syntax");
    assertThat(e.problems().get(0).message()).startsWith("line ");
    assertThat(e.getMessage()).doesNotContain("sk_live_secret");
  }

  @Test
  void unsafeOrOversizedDocumentsAreRefused() {
    assertThat(code("version: !!java.io.File /etc/passwd\nrules: []\n")).isEqualTo("yaml_syntax");
    assertThat(code("version: v1\nversion: v2\nrules: []\n")).isEqualTo("yaml_syntax");
    assertThat(code("version: v1\nrules: []\n---\nversion: v2\n")).isEqualTo("yaml_syntax");
    assertThat(code("# " + "x".repeat(YamlPolicyParser.MAX_CHARS))).isEqualTo("too_large");
  }

  /** One valid stripe rule with one line replaced or added. */
  private static String rule(String line) {
    return rule(line, null);
  }

  private static String rule(String line, String second) {
    String key = line.substring(0, line.indexOf(':'));
    StringBuilder sb = new StringBuilder("version: v1\nrules:\n");
    String[] fields = {
      "match: {channel: stripe, payment_method: card, operation: create}",
      "strategies: [idempotent_replay, retrieve]",
      "delays: [10s, 30s]",
      "max_unknown_age: 2h",
      "query_qps: 20",
      "query_concurrency: 8"
    };
    boolean replaced = false;
    for (int i = 0; i < fields.length; i++) {
      String field = fields[i];
      if (field.startsWith(key + ":")) {
        field = line;
        replaced = true;
      } else if (second != null && field.startsWith(second.substring(0, second.indexOf(':')))) {
        field = second;
      }
      sb.append(i == 0 ? "  - " : "    ").append(field).append('\n');
    }
    if (!replaced) {
      sb.append("    ").append(line).append('\n');
    }
    return sb.toString();
  }

  private void assertProblem(String text, String code, String path, int ruleIndex) {
    PolicyRejected e = catchThrowableOfType(() -> parser.parse(text), PolicyRejected.class);
    assertThat(e).as(code + " at " + path).isNotNull();
    List<PolicyProblem> problems = e.problems();
    assertThat(problems).as(text).hasSize(1);
    assertThat(problems.get(0).code()).isEqualTo(code);
    assertThat(problems.get(0).message()).startsWith(path + ": ");
    assertThat(problems.get(0).ruleIndex()).isEqualTo(ruleIndex);
    assertThat(e.code()).isEqualTo(code);
  }

  private String code(String text) {
    return catchThrowableOfType(() -> parser.parse(text), PolicyRejected.class).code();
  }
}
