package dev.clearway.lab.cli;

import dev.clearway.core.reconciliation.domain.ReconCounts;
import dev.clearway.core.reconciliation.engine.ReconciliationJob;
import dev.clearway.core.reconciliation.engine.RepairPass;
import dev.clearway.core.statement.StatementFileRecord;
import java.util.LinkedHashMap;
import java.util.Map;

/** The fields of the one JSON line {@code clearway reconcile} prints, in their order. */
final class ReconcileJson {
  private final Map<String, Object> fields = new LinkedHashMap<>();

  /** The file part: the file on record, or {@code "status": "NONE"} when no file is in force. */
  ReconcileJson(StatementFileRecord record) {
    if (record == null) {
      fields.put("fileId", null);
      fields.put("status", "NONE");
      return;
    }
    fields.put("fileId", record.id());
    fields.put("status", record.status().name());
    fields.put("lines", record.lineCount());
    fields.put("sha256", record.sha256());
    if (record.status() == StatementFileRecord.Status.REFUSED) {
      fields.put("refusedLine", record.refusedLine());
      fields.put("refusedReason", record.refusedReason());
    }
  }

  void run(ReconciliationJob.Result result) {
    ReconCounts c = result.counts();
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("id", result.runId());
    run.put("outcome", result.outcome().name());
    run.put("lines", c.lines());
    run.put("differences", c.differences());
    run.put("newDifferences", c.newDifferences());
    run.put("detail", result.detail());
    fields.put("run", run);
  }

  void differences(Map<String, Long> byClass, Map<String, Long> byState) {
    fields.put("differencesByClass", byClass);
    fields.put("differencesByState", byState);
  }

  void repairs(RepairPass.Round round) {
    Map<String, Object> repairs = new LinkedHashMap<>();
    repairs.put("claimed", round.claimed());
    repairs.put("resolved", round.resolved());
    repairs.put("autoRepaired", round.autoRepaired());
    repairs.put("tickets", round.tickets());
    repairs.put("waiting", round.waiting());
    repairs.put("retrying", round.retrying());
    fields.put("repairs", repairs);
  }

  Map<String, Object> fields() {
    return fields;
  }
}
