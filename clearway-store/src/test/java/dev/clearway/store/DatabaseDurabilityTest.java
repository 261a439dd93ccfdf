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
    String reported = TestDatabase.get().database().synchronousCommit();
    if (System.getProperty("clearway.test.server", "").isBlank()) {
      assertThat(reported).isEqualTo("off");
    } else {
      // On a server of the machine the setting is the server's own, not the test's to choose.
      assertThat(reported).isIn("on", "off", "local", "remote_write", "remote_apply");
    }
  }
}
