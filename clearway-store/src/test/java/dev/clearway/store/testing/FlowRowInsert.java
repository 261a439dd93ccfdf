package dev.clearway.store.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import javax.sql.DataSource;

/**
 * Plants a flow row with raw SQL, bypassing every store, on either database: its facts in
 * pay_flow_fact and its state in pay_flow_state, in one transaction (the pay_flow view is for
 * reading on the MySQL family). Inserts are not guarded by the triggers, so any status may be
 * planted; the fact is live unless the status is PAY_FAIL or CLOSED, as the database keeps it. Each
 * setting returns a changed copy: a row to plant is never changed under its holder.
 */
public final class FlowRowInsert {
  private final String bizKey;
  private final int attemptNo;
  private final String status;

  /** Creation, update and due time; the deadline is an hour later. */
  private final Instant at;

  private String merchant = "m1";
  private long userId = 7;
  private String scene = "shop";

  /** The trade order number (null: none yet); the refund number is derived from it. */
  private String tradeOrderNo;

  private long version;
  private long amount = 1000;
  private String currency = "EUR";
  private Instant nextRetryTime;
  private String reviewState = "NONE";
  private String reviewReason;

  private FlowRowInsert(String bizKey, int attemptNo, String status, Instant at) {
    this.bizKey = bizKey;
    this.attemptNo = attemptNo;
    this.status = status;
    this.at = at;
    this.nextRetryTime = at;
  }

  /** A WAIT_PAY row of merchant m1, user 7, scene shop, 1000 EUR, due at {@code at}. */
  public static FlowRowInsert of(String bizKey, int attemptNo, String status, Instant at) {
    return new FlowRowInsert(bizKey, attemptNo, status, at);
  }

  public FlowRowInsert owner(String merchant, long userId, String scene) {
    FlowRowInsert row = copy();
    row.merchant = merchant;
    row.userId = userId;
    row.scene = scene;
    return row;
  }

  public FlowRowInsert trade(String tradeOrderNo) {
    FlowRowInsert row = copy();
    row.tradeOrderNo = tradeOrderNo;
    return row;
  }

  public FlowRowInsert money(long amount, String currency) {
    FlowRowInsert row = copy();
    row.amount = amount;
    row.currency = currency;
    return row;
  }

  public FlowRowInsert version(long version) {
    FlowRowInsert row = copy();
    row.version = version;
    return row;
  }

  public FlowRowInsert due(Instant nextRetryTime) {
    FlowRowInsert row = copy();
    row.nextRetryTime = nextRetryTime;
    return row;
  }

  public FlowRowInsert review(String reviewState, String reviewReason) {
    FlowRowInsert row = copy();
    row.reviewState = reviewState;
    row.reviewReason = reviewReason;
    return row;
  }

  private FlowRowInsert copy() {
    FlowRowInsert row = new FlowRowInsert(bizKey, attemptNo, status, at);
    row.merchant = merchant;
    row.userId = userId;
    row.scene = scene;
    row.tradeOrderNo = tradeOrderNo;
    row.version = version;
    row.amount = amount;
    row.currency = currency;
    row.nextRetryTime = nextRetryTime;
    row.reviewState = reviewState;
    row.reviewReason = reviewReason;
    return row;
  }

  /** Writes the row; its id. */
  public long insert(DataSource dataSource) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        long id = insertFact(c);
        insertState(c, id);
        c.commit();
        return id;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  private long insertFact(Connection c) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO pay_flow_fact (merchant_id, user_id, scene, biz_key, attempt_no,"
                + " trade_order_no, refund_order_no, amount, currency, biz_deadline_time,"
                + " created_at, live) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            new String[] {"id"})) {
      int i = 1;
      ps.setString(i++, merchant);
      ps.setLong(i++, userId);
      ps.setString(i++, scene);
      ps.setString(i++, bizKey);
      ps.setInt(i++, attemptNo);
      ps.setString(i++, tradeOrderNo);
      ps.setString(i++, tradeOrderNo == null ? null : "r_" + tradeOrderNo);
      ps.setLong(i++, amount);
      ps.setString(i++, currency);
      ps.setObject(i++, at.plus(Duration.ofHours(1)).atOffset(ZoneOffset.UTC));
      ps.setObject(i++, at.atOffset(ZoneOffset.UTC));
      ps.setBoolean(i, !status.equals("PAY_FAIL") && !status.equals("CLOSED"));
      ps.executeUpdate();
      try (ResultSet keys = ps.getGeneratedKeys()) {
        keys.next();
        return keys.getLong(1);
      }
    }
  }

  private void insertState(Connection c, long id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO pay_flow_state (id, status, version, next_retry_time, review_state,"
                + " review_reason, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      ps.setLong(1, id);
      ps.setString(2, status);
      ps.setLong(3, version);
      ps.setObject(4, nextRetryTime.atOffset(ZoneOffset.UTC));
      ps.setString(5, reviewState);
      ps.setString(6, reviewReason);
      ps.setObject(7, at.atOffset(ZoneOffset.UTC));
      ps.executeUpdate();
    }
  }
}
