package dev.clearway.store.channel;

import dev.clearway.core.channel.domain.MerchantChannel;
import dev.clearway.core.channel.domain.MethodChoice;
import dev.clearway.core.channel.port.PaymentDetailsStore;
import dev.clearway.core.channel.spi.ClientAction;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code payment_attempt_action}, {@code merchant_channel} and {@code payment_method_choice} on
 * PostgreSQL and the MySQL family: the insert-if-absent and the upserts are the dialect's.
 */
public final class JdbcPaymentDetails implements PaymentDetailsStore {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final TypeReference<LinkedHashMap<String, String>> FIELDS =
      new TypeReference<>() {};

  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final Sql sql;

  /** A store on PostgreSQL. */
  public JdbcPaymentDetails(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcPaymentDetails(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.sql = new Sql(dataSource);
  }

  @Override
  public void saveAction(long attemptId, ClientAction action, Instant now) {
    // 0 rows: the attempt's first answer already gave its action, which stays.
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                dialect.insertIfAbsent(
                    """
                    INSERT INTO payment_attempt_action (attempt_id, kind, fields, created_at)
                    VALUES (?, ?, ?, ?)
                    """,
                    "attempt_id"))) {
      ps.setLong(1, attemptId);
      ps.setString(2, action.kind().name());
      ps.setString(3, JSON.writeValueAsString(action.fields()));
      ps.setObject(4, Sql.ts(now));
      dialect.executeIfAbsent(ps);
    } catch (SQLException e) {
      throw new StoreException("save client action", e);
    }
  }

  @Override
  public Optional<ClientAction> action(long attemptId) {
    return sql
        .query(
            "SELECT kind, fields FROM payment_attempt_action WHERE attempt_id = ?",
            ps -> ps.setLong(1, attemptId),
            rs ->
                new ClientAction(
                    ClientAction.Kind.valueOf(rs.getString("kind")),
                    (Map<String, String>) JSON.readValue(rs.getString("fields"), FIELDS)))
        .stream()
        .findFirst();
  }

  @Override
  public List<MerchantChannel> merchantChannels(String merchant) {
    return sql.query(
        """
        SELECT merchant_id, channel_account_id, sub_merchant, payment_methods, min_amount,
               max_amount, enabled
          FROM merchant_channel WHERE merchant_id = ? ORDER BY channel_account_id
        """,
        ps -> ps.setString(1, merchant),
        rs ->
            new MerchantChannel(
                rs.getString("merchant_id"),
                rs.getLong("channel_account_id"),
                rs.getString("sub_merchant"),
                methods(rs.getString("payment_methods")),
                (Long) rs.getObject("min_amount", Long.class),
                (Long) rs.getObject("max_amount", Long.class),
                rs.getBoolean("enabled")));
  }

  @Override
  public void upsertMerchantChannel(MerchantChannel c) {
    int rows =
        sql.update(
            dialect.upsert(
                """
                INSERT INTO merchant_channel (merchant_id, channel_account_id, sub_merchant,
                  payment_methods, min_amount, max_amount, enabled)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                "merchant_id, channel_account_id",
                "sub_merchant, payment_methods, min_amount, max_amount, enabled"),
            ps -> {
              ps.setString(1, c.merchant());
              ps.setLong(2, c.channelAccountId());
              ps.setString(3, c.subMerchant());
              ps.setString(4, String.join(",", c.paymentMethods().stream().sorted().toList()));
              ps.setObject(5, c.minAmount());
              ps.setObject(6, c.maxAmount());
              ps.setBoolean(7, c.enabled());
            });
    if (!upserted(rows)) {
      throw new IllegalStateException("merchant_channel upsert wrote " + rows + " rows");
    }
  }

  @Override
  public void saveChoice(GoalKey goal, MethodChoice choice, Instant now) {
    int rows =
        sql.update(
            dialect.upsert(
                """
                INSERT INTO payment_method_choice
                  (merchant_id, user_id, scene, biz_key, method, token, payer_ref, chosen_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                "merchant_id, user_id, scene, biz_key",
                "method, token, payer_ref, chosen_at"),
            ps -> {
              ps.setString(1, goal.merchant());
              ps.setLong(2, goal.userId());
              ps.setString(3, goal.scene());
              ps.setString(4, goal.bizKey());
              ps.setString(5, choice.method());
              ps.setString(6, choice.token());
              ps.setString(7, choice.payer());
              ps.setObject(8, Sql.ts(now));
            });
    if (!upserted(rows)) {
      throw new IllegalStateException("payment_method_choice upsert wrote " + rows + " rows");
    }
  }

  @Override
  public Optional<MethodChoice> choice(GoalKey goal) {
    return sql
        .query(
            """
            SELECT method, token, payer_ref FROM payment_method_choice
             WHERE merchant_id = ? AND user_id = ? AND scene = ? AND biz_key = ?
            """,
            ps -> {
              ps.setString(1, goal.merchant());
              ps.setLong(2, goal.userId());
              ps.setString(3, goal.scene());
              ps.setString(4, goal.bizKey());
            },
            rs ->
                new MethodChoice(
                    rs.getString("method"), rs.getString("token"), rs.getString("payer_ref")))
        .stream()
        .findFirst();
  }

  /**
   * Whether an upsert's count says it wrote its row: 1 on PostgreSQL; on the MySQL family 1 for an
   * insert, 2 for an update, and 1 (the driver counts found rows) for a row that kept its values.
   */
  private static boolean upserted(int rows) {
    return rows == 1 || rows == 2;
  }

  private static Set<String> methods(String text) {
    return Arrays.stream(text.split(","))
        .map(String::trim)
        .filter(m -> !m.isEmpty())
        .collect(Collectors.toUnmodifiableSet());
  }
}
