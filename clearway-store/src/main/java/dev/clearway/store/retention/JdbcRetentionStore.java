package dev.clearway.store.retention;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.retention.RetentionKind;
import dev.clearway.core.retention.RetentionStore;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.SqlDialects;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * {@link RetentionStore} over PostgreSQL and the MySQL family ({@link MysqlRetentionStatements}).
 * On PostgreSQL every purge is one statement: the oldest rows past the cutoff through an index on
 * their age, locked with {@code SKIP LOCKED} (a row a request is working on is left for the next
 * run), deleted by key. Flows are moved by {@link FlowArchiver}, on the MySQL family by {@link
 * MysqlFlowArchiver}.
 */
public final class JdbcRetentionStore implements RetentionStore {
  private final Sql sql;
  private final FlowArchiver archiver;
  private final MysqlFlowArchiver mysqlArchiver;
  private final ShardedFlowArchiver shardedArchiver;
  private final boolean mysql;
  private final boolean sharded;

  /** A store on the database behind {@code dataSource}, its dialect read from its URL. */
  public JdbcRetentionStore(DataSource dataSource) {
    this(dataSource, SqlDialects.forDataSource(dataSource));
  }

  public JdbcRetentionStore(DataSource dataSource, SqlDialect dialect) {
    this.sql = new Sql(dataSource);
    this.archiver = new FlowArchiver(dataSource);
    this.mysqlArchiver = new MysqlFlowArchiver(dataSource);
    this.shardedArchiver = new ShardedFlowArchiver(dataSource);
    this.mysql = !dialect.writesReturnRows();
    this.sharded = dialect.sharded();
  }

  @Override
  public int removeBatch(RetentionKind kind, Instant cutoff, int limit) {
    if (sharded && kind == RetentionKind.FLOW_ARCHIVE) {
      // Through a sharding driver the archivable flows are chosen and moved shard by shard.
      return shardedArchiver.moveBatch(cutoff, limit);
    }
    if (mysql) {
      return kind == RetentionKind.FLOW_ARCHIVE
          ? mysqlArchiver.moveBatch(cutoff, limit)
          : MysqlRetentionStatements.purge(sql, kind, cutoff, limit);
    }
    return switch (kind) {
      case IDEMPOTENCY ->
          // Only completed records (DONE): an in-flight one still guards a running request.
          purge(
              """
              DELETE FROM idempotency_key WHERE (merchant_id, idem_key) IN (
                SELECT merchant_id, idem_key FROM idempotency_key
                 WHERE state = 'DONE' AND updated_at < ?
                 ORDER BY updated_at LIMIT ? FOR UPDATE SKIP LOCKED)
              """,
              cutoff,
              limit);
      case CALLBACK_INBOX ->
          purge(
              """
              DELETE FROM callback_inbox WHERE (channel, event_id) IN (
                SELECT channel, event_id FROM callback_inbox
                 WHERE received_at < ?
                 ORDER BY received_at LIMIT ? FOR UPDATE SKIP LOCKED)
              """,
              cutoff,
              limit);
      case WEBHOOK_INBOX ->
          // Only deliveries marked done: a claim still open belongs to a delivery being processed.
          purge(
              """
              DELETE FROM channel_webhook_inbox WHERE (channel_account_id, event_id) IN (
                SELECT channel_account_id, event_id FROM channel_webhook_inbox
                 WHERE done_at IS NOT NULL AND done_at < ?
                 ORDER BY done_at LIMIT ? FOR UPDATE SKIP LOCKED)
              """,
              cutoff,
              limit);
      case PUBLISHED_OUTBOX ->
          // Only published events: the relay's pending ones are never touched.
          purge(
              """
              DELETE FROM outbox_event WHERE id IN (
                SELECT id FROM outbox_event
                 WHERE published_at IS NOT NULL AND published_at < ?
                 ORDER BY published_at LIMIT ? FOR UPDATE SKIP LOCKED)
              """,
              cutoff,
              limit);
      case FLOW_ARCHIVE -> archiver.moveBatch(cutoff, limit);
    };
  }

  private int purge(String statement, Instant cutoff, int limit) {
    return sql.update(
        statement,
        ps -> {
          ps.setObject(1, ts(cutoff));
          ps.setInt(2, limit);
        });
  }
}
