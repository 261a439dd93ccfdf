package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import java.time.ZoneId;
import java.util.Optional;

/** Each account's reconciliation terms and the time zone of its statement day. */
public interface AccountTermsSource {

  Optional<AccountTerms> terms(String account);

  /** The zone the PSP's statement day is counted in (WeChat Pay: Asia/Shanghai). */
  ZoneId statementZone(String account);
}
