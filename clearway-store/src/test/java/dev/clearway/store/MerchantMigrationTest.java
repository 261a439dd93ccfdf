package dev.clearway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A database that existed before payments were owned by merchants: its rows come through the
 * migration owned by the merchant {@code default}, its goals stay unique per merchant, and the
 * owner is frozen from then on. Runs in a schema of its own so it does not touch the shared one.
 */
class MerchantMigrationTest {
  private static final String SCHEMA = "merchant_upgrade";

  @BeforeEach
  void dropSchema() throws SQLException {
    execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
  }

  @AfterEach
  void cleanUp() throws SQLException {
    dropSchema();
  }

  @Test
  void rowsWrittenBeforeOwnershipBelongToTheDefaultMerchant() throws SQLException {
    flyway("11").migrate();
    execute(
        "INSERT INTO "
            + SCHEMA
            + ".pay_flow (user_id, scene, biz_key, attempt_no, status, amount, currency,"
            + " biz_deadline_time, next_retry_time, created_at, updated_at)"
            + " VALUES (7, 'renewal', 'old-goal', 1, 'WAIT_PAY', 100, 'CNY', now(), now(), now(),"
            + " now())");
    execute(
        "INSERT INTO "
            + SCHEMA
            + ".idempotency_key (merchant_id, idem_key, request_hash, state, locked_until,"
            + " created_at, updated_at) VALUES ('merchant-3fa2b1', 'k-1', repeat('a', 64),"
            + " 'IN_FLIGHT', now(), now(), now())");

    flyway("latest").migrate();

    assertThat(text("SELECT merchant_id FROM " + SCHEMA + ".pay_flow")).isEqualTo("default");
    assertThat(text("SELECT merchant_id FROM " + SCHEMA + ".idempotency_key")).isEqualTo("default");
    // The same goal of another merchant is another goal; of the same merchant, still refused.
    execute(
        "INSERT INTO "
            + SCHEMA
            + ".pay_flow (merchant_id, user_id, scene, biz_key, attempt_no, status, amount,"
            + " currency, biz_deadline_time, next_retry_time, created_at, updated_at)"
            + " VALUES ('shop-b', 7, 'renewal', 'old-goal', 1, 'WAIT_PAY', 100, 'CNY', now(),"
            + " now(), now(), now())");
    assertThatThrownBy(
            () ->
                execute(
                    "INSERT INTO "
                        + SCHEMA
                        + ".pay_flow (user_id, scene, biz_key, attempt_no, status, amount,"
                        + " currency, biz_deadline_time, next_retry_time, created_at,"
                        + " updated_at) VALUES (7, 'renewal', 'old-goal', 2, 'WAIT_PAY', 100,"
                        + " 'CNY', now(), now(), now(), now())"))
        .hasMessageContaining("uk_live_attempt");
    assertThatThrownBy(
            () ->
                execute(
                    "UPDATE " + SCHEMA + ".pay_flow SET merchant_id = 'shop-c' WHERE user_id = 7"))
        .hasMessageContaining("owning merchant is frozen");
  }

  private static Flyway flyway(String target) {
    return Flyway.configure()
        .dataSource(TestDatabase.get().dataSource())
        .locations(new PostgresDialect().migrationLocation())
        .schemas(SCHEMA)
        .table(Schema.HISTORY_TABLE)
        .target(target)
        .load();
  }

  private static void execute(String sql) throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static String text(String sql) throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
