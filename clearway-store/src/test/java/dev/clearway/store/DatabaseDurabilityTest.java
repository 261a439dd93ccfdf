package dev.clearway.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.testing.TestDatabase;
import org.junit.jupiter.api.Test;

/**
 * The embedded server commits durably unless told otherwise (its library's own default is off);
 * only the throwaway test database defers its commits.
 */
class DatabaseDurabilityTest {

  @Test
  void anEmbeddedServerFlushesEveryCommitByDefault() {
    try (Database db = Database.embedded(1)) {
      assertThat(db.synchronousCommit()).isEqualTo("on");
    }
  }

  @Test
  void theSharedTestDatabaseDefersItsCommits() {
    assertThat(TestDatabase.get().database().synchronousCommit()).isEqualTo("off");
  }
}
