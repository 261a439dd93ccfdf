package dev.clearway.store.reconciliation;

import dev.clearway.core.reconciliation.domain.BusinessFact;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.LocalAttempt;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.LocalRefund;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.port.DifferenceStore.Found;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Both sides of a difference as they were found, as JSON: the statement line's fields, the local
 * rows' status, version and amount, what the business said. Only identities, states and amounts:
 * never a secret, a key or an account number.
 */
final class DifferenceEvidence {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private DifferenceEvidence() {}

  static String json(Found found) {
    Difference d = found.difference();
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("kind", d.kind().name());
    evidence.put("confidence", found.confidence().name());
    evidence.put("detail", d.detail());
    evidence.put("mustConfirm", d.kind().mustConfirm());
    evidence.put("actionableAt", d.actionableAt().toString());
    evidence.put("statement", statement(d.statement(), found));
    evidence.put("local", local(d.local()));
    evidence.put("sibling", local(d.sibling()));
    evidence.put("business", business(d.business()));
    return JSON.writeValueAsString(evidence);
  }

  private static Map<String, Object> statement(StatementFact s, Found found) {
    if (s == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("fileId", found.statementFileId());
    m.put("lineNo", found.statementLineNo());
    m.put("kind", s.kind().name());
    m.put("outcome", s.outcome().name());
    m.put("tradeOrderNo", s.tradeOrderNo());
    m.put("refundOrderNo", s.refundOrderNo());
    m.put("attemptKey", s.attemptKey());
    m.put("pspReference", s.pspReference());
    m.put("amountMinor", s.amountMinor());
    m.put("feeMinor", s.feeMinor());
    m.put("currency", s.currency());
    m.put("at", s.at().toString());
    m.put("account", s.account());
    return m;
  }

  private static Map<String, Object> local(LocalFact l) {
    if (l == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("flowId", l.flowId());
    m.put("merchant", l.goal().merchant());
    m.put("userId", l.goal().userId());
    m.put("scene", l.goal().scene());
    m.put("bizKey", l.goal().bizKey());
    m.put("tradeOrderNo", l.tradeOrderNo());
    m.put("flowStatus", l.flowStatus().name());
    m.put("flowVersion", l.flowVersion());
    m.put("amountMinor", l.amountMinor());
    m.put("currency", l.currency());
    m.put("channelAccount", l.channelAccount());
    m.put("updatedAt", l.updatedAt().toString());
    m.put("compensation", l.compensation().name());
    m.put("attempt", attempt(l.attempt()));
    m.put("refund", refund(l.refund()));
    return m;
  }

  private static Map<String, Object> attempt(LocalAttempt a) {
    if (a == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", a.id());
    m.put("attemptKey", a.attemptKey());
    m.put("status", a.status().name());
    m.put("version", a.version());
    return m;
  }

  private static Map<String, Object> refund(LocalRefund r) {
    if (r == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", r.id());
    m.put("refundOrderNo", r.refundOrderNo());
    m.put("status", r.status().name());
    m.put("amountMinor", r.amountMinor());
    m.put("version", r.version());
    m.put("updatedAt", r.updatedAt().toString());
    return m;
  }

  private static Map<String, Object> business(BusinessFact b) {
    if (b == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("status", b.status().name());
    m.put("attributedTradeOrderNo", b.attributedTradeOrderNo());
    return m;
  }
}
