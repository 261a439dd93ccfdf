package dev.clearway.core.retention;

/** What the retention job reports (metrics). */
public interface RetentionEvents {

  /** {@code rows} of the kind removed from the hot tables by one batch. */
  void removed(RetentionKind kind, int rows);

  /** A batch failed; the run stops and the next run starts again from the oldest rows. */
  void failed(RetentionKind kind, RuntimeException error);

  RetentionEvents NONE =
      new RetentionEvents() {
        @Override
        public void removed(RetentionKind kind, int rows) {}

        @Override
        public void failed(RetentionKind kind, RuntimeException error) {}
      };
}
