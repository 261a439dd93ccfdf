package dev.clearway.store.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.domain.TicketCommand;
import dev.clearway.core.reconciliation.domain.TicketKind;
import dev.clearway.core.reconciliation.port.TicketCommands.Proposal;
import dev.clearway.core.reconciliation.port.TicketCommands.Result;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Ticket commands on PostgreSQL: two approvers racing on one command apply it once; the database
 * itself refuses a command decided by its proposer; the audit is append-only; a refusal writes
 * nothing.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcTicketCommandsTest {
  private final JdbcTicketCommands commands =
      new JdbcTicketCommands(TestDatabase.get().dataSource());
  private final Instant now = Instant.parse("2026-12-01T12:00:00Z");

  @BeforeEach
  void reset() {
    TestDatabase.get()
        .truncate("recon_audit", "recon_command", "recon_difference_history", "recon_difference");
  }

  private long ticket(String tradeOrderNo) {
    execute(
        "INSERT INTO recon_difference (account_ref, statement_day, kind, identity, trade_order_no,"
            + " statement_amount, currency, confidence, state, repair_kind, detail, must_confirm,"
            + " evidence, actionable_at, run_id, last_run_id, version, created_at, updated_at)"
            + " VALUES ('acct', DATE '2026-11-30', 'AMOUNT_MISMATCH', '"
            + tradeOrderNo
            + "', '"
            + tradeOrderNo
            + "', 100, 'CNY', 'CONFIRMED', 'NEEDS_PERSON', 'NEEDS_PERSON', 'd', 'm', '{}', now(),"
            + " 1, 1, 0, now(), now())");
    return Long.parseLong(text("SELECT max(id) FROM recon_difference"));
  }

  private TicketCommand proposed(long differenceId) {
    Result r =
        commands.propose(
            new Proposal(
                differenceId, TicketKind.ACCEPT_DIFFERENCE, "Olivia", "FIN-1", "write off", "ref"),
            now);
    assertThat(r).isInstanceOf(Result.Done.class);
    return ((Result.Done) r).command();
  }

  @Test
  void twoApproversRacingApplyTheCommandOnce() throws Exception {
    long id = ticket("T1");
    TicketCommand cmd = proposed(id);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Result>> answers = new ArrayList<>();
    for (String approver : List.of("aaron", "bea")) {
      Callable<Result> approve =
          () -> {
            go.await();
            return commands.approve(cmd.id(), approver, now);
          };
      answers.add(pool.submit(approve));
    }
    go.countDown();
    int applied = 0;
    int refused = 0;
    for (Future<Result> f : answers) {
      Result r = f.get();
      if (r instanceof Result.Done done && "APPLIED".equals(done.command().state())) {
        applied++;
      } else if (r instanceof Result.Refused no && "command_not_open".equals(no.code())) {
        refused++;
      }
    }
    pool.shutdown();
    assertThat(applied).isEqualTo(1);
    assertThat(refused).isEqualTo(1);
    assertThat(text("SELECT CONCAT(state, ' v', version) FROM recon_difference WHERE id = " + id))
        .isEqualTo("RESOLVED v1");
    assertThat(String.join(",", texts("SELECT action FROM recon_audit ORDER BY id")))
        .isEqualTo("PROPOSE,APPROVE");
  }

  @Test
  void theDatabaseRefusesACommandDecidedByItsProposerAndKeepsTheAuditAppendOnly() {
    long id = ticket("T2");
    TicketCommand cmd = proposed(id);
    // Whatever the caller: the proposer's own name in approver_id breaks the check.
    assertThat(failure("UPDATE recon_command SET approver_id = 'olivia' WHERE id = " + cmd.id()))
        .contains("ck_recon_command_two_people");
    assertThat(failure("UPDATE recon_audit SET detail = 'changed'")).contains("append-only");
    assertThat(failure("DELETE FROM recon_audit")).contains("append-only");

    Result self = commands.approve(cmd.id(), " OLIVIA ", now);
    assertThat(self)
        .isEqualTo(
            new Result.Refused(
                "same_person", "a command must be decided by another person than its proposer"));
    assertThat(text("SELECT count(*) FROM recon_audit")).isEqualTo("1");
    assertThat(text("SELECT state FROM recon_command WHERE id = " + cmd.id()))
        .isEqualTo("PROPOSED");
  }

  @Test
  void aProposalOnADifferenceThatIsNotWaitingWritesNothing() {
    long id = ticket("T3");
    execute("UPDATE recon_difference SET state = 'RESOLVED', version = 1 WHERE id = " + id);
    Result r =
        commands.propose(
            new Proposal(id, TicketKind.RESOLVE_REPAIRED_OUTSIDE, "olivia", "t", "r", "e"), now);
    assertThat(r).isInstanceOf(Result.Refused.class);
    assertThat(((Result.Refused) r).code()).isEqualTo("difference_not_waiting");
    assertThat(
            commands.propose(
                new Proposal(999_999, TicketKind.ACCEPT_DIFFERENCE, "o", "t", "r", "e"), now))
        .isInstanceOf(Result.NotFound.class);
    assertThat(text("SELECT count(*) FROM recon_command")).isEqualTo("0");
    assertThat(text("SELECT count(*) FROM recon_audit")).isEqualTo("0");
  }

  private static void execute(String sql) {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  private static String failure(String sql) {
    try {
      execute(sql);
      return "no failure";
    } catch (IllegalStateException e) {
      return String.valueOf(e.getCause().getMessage());
    }
  }

  private static java.util.List<String> texts(String sql) {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      java.util.List<String> rows = new java.util.ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getString(1));
      }
      return rows;
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  private static String text(String sql) {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }
}
