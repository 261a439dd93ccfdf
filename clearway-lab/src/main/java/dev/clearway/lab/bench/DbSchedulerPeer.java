package dev.clearway.lab.bench;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.event.AbstractSchedulerListener;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import dev.clearway.store.Database;
import dev.clearway.store.Sql;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The peer leg of {@code bench recovery}: db-scheduler on the same database with the same number of
 * executor threads, polling with lock-and-fetch at the settings its documentation gives for high
 * throughput (fetch when a thread's worth is left, up to four per thread), executing N no-op
 * one-time tasks all due now (scheduled in one batch, untimed). Timed from the scheduler's start
 * until the last execution completed (its row deleted).
 */
final class DbSchedulerPeer {
  static final String TASK = "recovery-bench-noop";

  /** The table as db-scheduler's PostgreSQL DDL creates it. */
  private static final String[] DDL = {
    """
    CREATE TABLE IF NOT EXISTS scheduled_tasks (
      task_name text NOT NULL,
      task_instance text NOT NULL,
      task_data bytea,
      execution_time timestamp with time zone NOT NULL,
      picked BOOLEAN NOT NULL,
      picked_by text,
      last_success timestamp with time zone,
      last_failure timestamp with time zone,
      consecutive_failures INT,
      last_heartbeat timestamp with time zone,
      version BIGINT NOT NULL,
      priority SMALLINT,
      PRIMARY KEY (task_name, task_instance)
    )
    """,
    "CREATE INDEX IF NOT EXISTS execution_time_idx ON scheduled_tasks (execution_time)",
    "CREATE INDEX IF NOT EXISTS last_heartbeat_idx ON scheduled_tasks (last_heartbeat)",
    "CREATE INDEX IF NOT EXISTS priority_execution_time_idx"
        + " ON scheduled_tasks (priority desc, execution_time asc)"
  };

  /**
   * @param tasks tasks scheduled
   * @param executed executions that completed successfully
   * @param left rows of the task still in the table at the end
   * @param seconds from the scheduler's start until the last execution completed
   */
  record Result(int tasks, long executed, long left, double seconds) {
    double executionsPerSec() {
      return executed / seconds;
    }
  }

  private final Database db;
  private final int threads;
  private final Duration limit;

  DbSchedulerPeer(Database db, int threads, Duration limit) {
    this.db = db;
    this.threads = threads;
    this.limit = limit;
  }

  Result run(int tasks) throws InterruptedException {
    ScannerBench setup = new ScannerBench(db);
    setup.exec(DDL);
    setup.exec("TRUNCATE scheduled_tasks", "VACUUM ANALYZE scheduled_tasks");
    OneTimeTask<Void> noop = Tasks.oneTime(TASK).execute((instance, context) -> {});
    List<TaskInstance<?>> instances = new ArrayList<>(tasks);
    for (int i = 0; i < tasks; i++) {
      instances.add(noop.instance(Integer.toString(i)));
    }
    SchedulerClient.Builder.create(db.dataSource(), noop)
        .build()
        .scheduleBatch(instances, Instant.now());
    setup.exec("ANALYZE scheduled_tasks");
    CountDownLatch done = new CountDownLatch(tasks);
    AtomicLong executed = new AtomicLong();
    Scheduler scheduler =
        Scheduler.create(db.dataSource(), noop)
            .threads(threads)
            .pollUsingLockAndFetch(1.0, 4.0)
            .pollingInterval(Duration.ofSeconds(1))
            .shutdownMaxWait(Duration.ofSeconds(5))
            .addSchedulerListener(
                new AbstractSchedulerListener() {
                  @Override
                  public void onExecutionComplete(ExecutionComplete complete) {
                    if (complete.getResult() == ExecutionComplete.Result.OK) {
                      executed.incrementAndGet();
                      done.countDown();
                    }
                  }
                })
            .build();
    long t0 = System.nanoTime();
    scheduler.start();
    done.await(limit.toMillis(), TimeUnit.MILLISECONDS);
    double seconds = (System.nanoTime() - t0) / 1e9;
    scheduler.stop();
    long left =
        new Sql(db.dataSource())
            .query(
                "SELECT count(*) FROM scheduled_tasks WHERE task_name = ?",
                ps -> ps.setString(1, TASK),
                rs -> rs.getLong(1))
            .get(0);
    return new Result(tasks, executed.get(), left, seconds);
  }
}
