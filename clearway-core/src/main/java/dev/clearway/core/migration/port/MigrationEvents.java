package dev.clearway.core.migration.port;

import dev.clearway.core.migration.domain.HandBack;

/** What the routing step counts. */
public interface MigrationEvents {
  /** A goal was handed back to the legacy path. */
  void handedBack(HandBack reason);

  /** A probe could not answer; nothing was created. */
  void unknown(String probe);

  MigrationEvents NONE =
      new MigrationEvents() {
        @Override
        public void handedBack(HandBack reason) {}

        @Override
        public void unknown(String probe) {}
      };
}
