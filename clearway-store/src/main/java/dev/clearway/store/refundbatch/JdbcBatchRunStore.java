package dev.clearway.store.refundbatch;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refundbatch.decision.ItemDecision;
import dev.clearway.core.refundbatch.domain.BatchItem;
import dev.clearway.core.refundbatch.domain.BatchProgress;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import dev.clearway.core.refundbatch.port.BatchRunStore;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The batch runner's reads and lease-fenced writes over refund_batch and refund_batch_item. Every
 * write carries {@code state = 'RUNNING' AND lease_owner = holder} (on the batch row, or through
 * {@code EXISTS} for item rows): 0 rows means the batch was paused or taken over.
 */
public final class JdbcBatchRunStore implements BatchRunStore {
  /** The fence every runner write carries, on the batch row itself. */
  private static final String HELD = " AND state = 'RUNNING' AND lease_owner = ?";

  /** The same fence for a write to an item row. */
  private static final String ITEM_HELD =
      " AND EXISTS (SELECT 1 FROM refund_batch b WHERE b.id = i.batch_id"
          + " AND b.state = 'RUNNING' AND b.lease_owner = ?)";

  private final DataSource dataSource;
  private final Sql sql;

  /** The MySQL family's statements; null on PostgreSQL. */
  private final MysqlBatchRunStatements mysql;

  /** Whether the items and the refund orders live on different databases (a sharding driver). */
  private final boolean sharded;

  /** A store on PostgreSQL. */
  public JdbcBatchRunStore(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcBatchRunStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.sql = new Sql(dataSource);
    this.mysql = dialect.writesReturnRows() ? null : new MysqlBatchRunStatements(ITEM_HELD);
    this.sharded = dialect.sharded();
  }

  @Override
  public Optional<RefundBatch> claimDue(Lease lease, Instant now) {
    if (mysql != null) {
      return sql.transaction("claim refund batch", c -> mysql.claimDue(c, lease, now));
    }
    List<RefundBatch> rows =
        sql.query(
            """
            UPDATE refund_batch b SET state = 'RUNNING',
                   version = CASE WHEN b.state = 'APPROVED' THEN b.version + 1 ELSE b.version END,
                   lease_owner = ?, due_at = ?, updated_at = ?
             WHERE b.id = (SELECT id FROM refund_batch
                            WHERE state IN ('APPROVED', 'RUNNING') AND due_at <= ?
                            ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING b.*
            """,
            ps -> {
              ps.setString(1, lease.token());
              ps.setObject(2, ts(lease.until()));
              ps.setObject(3, ts(now));
              ps.setObject(4, ts(now));
            },
            BatchRows::batch);
    return rows.stream().findFirst();
  }

  @Override
  public List<BatchItem> pendingItems(long batchId, long afterId, int limit) {
    return sql.query(
        "SELECT id, batch_id, flow_id, account_id, amount FROM refund_batch_item"
            + " WHERE batch_id = ? AND outcome = 'PENDING' AND id > ? ORDER BY id LIMIT ?",
        ps -> {
          ps.setLong(1, batchId);
          ps.setLong(2, afterId);
          ps.setInt(3, limit);
        },
        rs ->
            new BatchItem(
                rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)));
  }

  @Override
  public int markPriorBatchRefunds(long batchId, String holder, Instant now) {
    if (sharded) {
      return sql.transaction(
          "mark prior batch refunds",
          c -> ShardedBatchStatements.markPriorBatchRefunds(c, batchId, holder, ITEM_HELD, now));
    }
    if (mysql != null) {
      return sql.update(mysql.markPriorBatchRefunds(), fenced(batchId, holder, now));
    }
    return sql.update(
        """
        UPDATE refund_batch_item i
           SET outcome = CASE WHEN r.status IN ('FAIL', 'CLOSED') THEN 'NEEDS_PERSON'
                              ELSE 'ALREADY_REFUNDED' END,
               refund_id = r.id,
               detail = CASE WHEN r.status IN ('FAIL', 'CLOSED')
                             THEN 'an earlier batch''s refund order is ' || r.status
                             ELSE 'refund order of an earlier batch' END,
               updated_at = ?
          FROM refund_batch_item p JOIN refund_order r ON r.id = p.refund_id
         WHERE i.batch_id = ? AND i.outcome = 'PENDING'
           AND p.flow_id = i.flow_id AND p.batch_id <> i.batch_id
        """
            + ITEM_HELD,
        ps -> {
          ps.setObject(1, ts(now));
          ps.setLong(2, batchId);
          ps.setString(3, holder);
        });
  }

  @Override
  public boolean recordItem(
      long batchId, String holder, long itemId, ItemDecision.Result result, Instant now) {
    return sql.update(
            "UPDATE refund_batch_item i SET outcome = ?, refund_id = ?, detail = ?, updated_at = ?"
                + " WHERE i.id = ? AND i.batch_id = ? AND i.outcome = 'PENDING'"
                + ITEM_HELD,
            ps -> {
              ps.setString(1, result.outcome().name());
              if (result.refundId() == null) {
                ps.setNull(2, Types.BIGINT);
              } else {
                ps.setLong(2, result.refundId());
              }
              ps.setString(3, Sql.truncate(result.detail(), 200));
              ps.setObject(4, ts(now));
              ps.setLong(5, itemId);
              ps.setLong(6, batchId);
              ps.setString(7, holder);
            })
        == 1;
  }

  @Override
  public boolean checkpoint(
      long batchId, String holder, long cursorItemId, Instant leaseUntil, Instant now) {
    return sql.update(
            "UPDATE refund_batch SET cursor_item_id = GREATEST(cursor_item_id, ?), due_at = ?,"
                + " updated_at = ? WHERE id = ?"
                + HELD,
            ps -> {
              ps.setLong(1, cursorItemId);
              ps.setObject(2, ts(leaseUntil));
              ps.setObject(3, ts(now));
              ps.setLong(4, batchId);
              ps.setString(5, holder);
            })
        == 1;
  }

  @Override
  public int settle(long batchId, String holder, Instant now) {
    if (sharded) {
      return sql.transaction(
          "settle refund batch",
          c -> ShardedBatchStatements.settle(c, batchId, holder, ITEM_HELD, now));
    }
    if (mysql != null) {
      return sql.update(mysql.settle(), fenced(batchId, holder, now));
    }
    return sql.update(
        """
        UPDATE refund_batch_item i
           SET outcome = CASE r.status WHEN 'SUCCESS' THEN 'REFUNDED'
                                       WHEN 'ABNORMAL' THEN 'NEEDS_PERSON' ELSE 'FAILED' END,
               detail = CASE r.status WHEN 'SUCCESS' THEN NULL ELSE 'refund order ' || r.status END,
               updated_at = ?
          FROM refund_order r
         WHERE i.batch_id = ? AND i.outcome = 'ORDERED' AND r.id = i.refund_id
           AND r.status IN ('SUCCESS', 'FAIL', 'CLOSED', 'ABNORMAL')
        """
            + ITEM_HELD,
        ps -> {
          ps.setObject(1, ts(now));
          ps.setLong(2, batchId);
          ps.setString(3, holder);
        });
  }

  /** Binds updated_at, batch_id and the holder's fence, in that order. */
  private static Sql.Binder fenced(long batchId, String holder, Instant now) {
    return ps -> {
      ps.setObject(1, ts(now));
      ps.setLong(2, batchId);
      ps.setString(3, holder);
    };
  }

  @Override
  public BatchProgress progress(long batchId) {
    try (Connection c = dataSource.getConnection()) {
      return BatchRows.progress(c, batchId);
    } catch (SQLException e) {
      throw new StoreException("refund batch progress", e);
    }
  }

  @Override
  public boolean finish(long batchId, String holder, BatchProgress counts, Instant now) {
    try {
      return Sql.inTransaction(
          dataSource, c -> finish(c, batchId, holder, counts, now), done -> done);
    } catch (SQLException e) {
      throw new StoreException("refund batch finish", e);
    }
  }

  private static boolean finish(
      Connection c, long batchId, String holder, BatchProgress counts, Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE refund_batch SET state = 'DONE', version = version + 1, lease_owner = NULL,"
                + " refunded = ?, already_refunded = ?, failed = ?, needs_person = ?,"
                + " finished_at = ?, updated_at = ? WHERE id = ?"
                + HELD)) {
      ps.setInt(1, counts.count(ItemOutcome.REFUNDED));
      ps.setInt(2, counts.count(ItemOutcome.ALREADY_REFUNDED));
      ps.setInt(3, counts.count(ItemOutcome.FAILED));
      ps.setInt(4, counts.count(ItemOutcome.NEEDS_PERSON));
      ps.setObject(5, ts(now));
      ps.setObject(6, ts(now));
      ps.setLong(7, batchId);
      ps.setString(8, holder);
      if (ps.executeUpdate() != 1) {
        return false;
      }
    }
    BatchRows.audit(c, batchId, holder, "RUNNER", "DONE", counts.counts().toString(), now);
    return true;
  }

  @Override
  public boolean release(long batchId, String holder, Instant dueAt, Instant now) {
    return sql.update(
            "UPDATE refund_batch SET lease_owner = NULL, due_at = ?, updated_at = ? WHERE id = ?"
                + HELD,
            ps -> {
              ps.setObject(1, ts(dueAt));
              ps.setObject(2, ts(now));
              ps.setLong(3, batchId);
              ps.setString(4, holder);
            })
        == 1;
  }
}
