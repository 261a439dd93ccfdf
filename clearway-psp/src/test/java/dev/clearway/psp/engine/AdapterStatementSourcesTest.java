package dev.clearway.psp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.engine.AdapterStatementSources;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The statement source of an account reference: the channel account's adapter when it publishes a
 * statement, a fixed source (the wallet) by its own reference, nothing otherwise.
 */
class AdapterStatementSourcesTest {
  private static final LocalDate DAY = LocalDate.of(2026, 12, 1);

  @Test
  void anAccountReferenceFindsItsAdaptersStatementOrAFixedSource() {
    ChannelTestRig rig = new ChannelTestRig();
    var ctx =
        rig.context(ChannelTestRig.rule(List.of(RecoveryStrategy.RETRIEVE), Duration.ofHours(1)));
    Statement published =
        Statement.unhashed(
            StatementFormat.STRIPE_BALANCE, "id\n".getBytes(StandardCharsets.US_ASCII));
    rig.a.statement = published;
    Statement walletCsv =
        Statement.unhashed(
            StatementFormat.WALLET_CSV, "kind\n".getBytes(StandardCharsets.US_ASCII));
    StatementSource wallet = (account, day) -> walletCsv;
    AdapterStatementSources sources =
        new AdapterStatementSources(
            rig.stores.accounts(), ctx.adapters(), Map.of("wallet", wallet));

    assertThat(sources.source("acct_1")).isPresent();
    assertThat(sources.source("acct_1").get().downloadStatement("acct_1", DAY)).isSameAs(published);
    assertThat(rig.a.calls).contains("statement acct_1 " + DAY);
    assertThat(sources.source("acct_2")).as("its adapter publishes none").isEmpty();
    assertThat(sources.source("acct_9")).as("no such account").isEmpty();
    assertThat(sources.source("wallet").get().downloadStatement("wallet", DAY)).isSameAs(walletCsv);
  }
}
