package dev.clearway.psp.policy;

import dev.clearway.core.channel.policy.PolicyParser;
import dev.clearway.core.channel.policy.PolicyProblem;
import dev.clearway.core.channel.policy.PolicyRejected;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Parses recovery policy files in Clearway's YAML policy format. Safe by construction: snakeyaml's
 * {@link SafeConstructor} builds only maps, lists and scalars (no arbitrary types), a document is
 * limited to {@value #MAX_CHARS} characters, few aliases, shallow nesting and no duplicate keys.
 * Stateless and thread-safe (a new loader per document).
 *
 * <p>Refusal codes: {@code too_large}, {@code yaml_syntax} (with line and column), and the schema
 * codes {@code unknown_key}, {@code missing_key}, {@code bad_type}, {@code bad_duration}, {@code
 * bad_strategy}, {@code bad_operation}, each message starting with a path such as {@code
 * rules[2].delays[1]}. Messages never quote the document.
 */
public final class YamlPolicyParser implements PolicyParser {

  public static final int MAX_CHARS = 256 * 1024;

  @Override
  public RecoveryPolicy parse(String text) throws PolicyRejected {
    if (text == null || text.length() > MAX_CHARS) {
      throw PolicyRejected.of(
          List.of(
              new PolicyProblem(
                  "too_large",
                  PolicyProblem.POLICY_LEVEL,
                  "(root): a policy file holds at most " + MAX_CHARS + " characters")));
    }
    Object document;
    try {
      document = loader().load(text);
    } catch (YAMLException e) {
      throw PolicyRejected.of(
          List.of(new PolicyProblem("yaml_syntax", PolicyProblem.POLICY_LEVEL, describe(e))));
    }
    PolicySchemaReader reader = new PolicySchemaReader();
    RecoveryPolicy policy = reader.read(document);
    if (policy == null) {
      throw PolicyRejected.of(reader.problems());
    }
    return policy;
  }

  private static Yaml loader() {
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit(MAX_CHARS);
    options.setMaxAliasesForCollections(20);
    options.setNestingDepthLimit(16);
    options.setAllowDuplicateKeys(false);
    options.setAllowRecursiveKeys(false);
    return new Yaml(new SafeConstructor(options));
  }

  /** Where and what, from snakeyaml's marks only: its message would quote the document. */
  private static String describe(YAMLException e) {
    if (e instanceof MarkedYAMLException marked) {
      Mark mark =
          marked.getProblemMark() != null ? marked.getProblemMark() : marked.getContextMark();
      String where =
          mark == null
              ? "(root)"
              : "line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
      String what = marked.getProblem() != null ? marked.getProblem() : marked.getContext();
      return where + ": " + what;
    }
    return "(root): not a single well-formed YAML document";
  }
}
