package dev.clearway.core.channel.port;

import dev.clearway.core.channel.domain.ChannelAccount;
import java.util.List;

/** The channel accounts (one PSP account each): configuration, not money. */
public interface ChannelAccountStore {

  /** Every account, by priority then id. */
  List<ChannelAccount> accounts();

  /** Inserts or updates an account (configuration: its id, channel and reference never change). */
  void upsertAccount(ChannelAccount account);
}
