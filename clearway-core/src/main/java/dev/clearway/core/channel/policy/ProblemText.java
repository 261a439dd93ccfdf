package dev.clearway.core.channel.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text form of a problem list for storage: one problem per line, {@code
 * code<TAB>ruleIndex<TAB>message}; tabs and line breaks inside a message become spaces, so that
 * {@link #decode(String)} of {@link #encode(List)} gives the same codes and indexes back.
 */
public final class ProblemText {

  private ProblemText() {}

  /** The text form; null for an empty list. */
  public static String encode(List<PolicyProblem> problems) {
    if (problems.isEmpty()) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    for (PolicyProblem p : problems) {
      sb.append(clean(p.code()))
          .append('\t')
          .append(p.ruleIndex())
          .append('\t')
          .append(clean(p.message()))
          .append('\n');
    }
    return sb.toString();
  }

  /** The problems of a text form; empty for null or blank. */
  public static List<PolicyProblem> decode(String text) {
    List<PolicyProblem> problems = new ArrayList<>();
    if (text == null) {
      return problems;
    }
    for (String line : text.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      String[] parts = line.split("\t", 3);
      if (parts.length == 3) {
        problems.add(new PolicyProblem(parts[0], Integer.parseInt(parts[1]), parts[2]));
      }
    }
    return problems;
  }

  private static String clean(String s) {
    return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
  }
}
