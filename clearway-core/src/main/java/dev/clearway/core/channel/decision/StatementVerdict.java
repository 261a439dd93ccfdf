package dev.clearway.core.channel.decision;

import dev.clearway.core.reconciliation.domain.StatementFact;
import java.util.Objects;

/** What the imported statements say about one attempt whose result only they can tell. */
public sealed interface StatementVerdict {

  /** A succeeded charge line of the attempt, for the attempt's amount and currency. */
  record Charged(StatementFact line) implements StatementVerdict {
    public Charged {
      Objects.requireNonNull(line, "line");
    }
  }

  /**
   * No line of the attempt, although the statements of its day and the next are imported and the
   * account's settlement window has passed: the statement witnesses that no money moved.
   */
  record NotCharged() implements StatementVerdict {}

  /** The lines disagree with the attempt or cannot be attributed to it: a person decides. */
  record ToPerson(String reason) implements StatementVerdict {
    public ToPerson {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** The statements cannot tell yet. */
  record Wait(String reason) implements StatementVerdict {
    public Wait {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
