// The console's Batch refunds panel: every batch with its state and a progress bar (items whose
// outcome is final, of all), the counts per outcome (refunded, already refunded, failed, needing a
// person, still open), and the buttons the state allows: approve or reject (an approver who did not
// propose it), pause, resume, cancel. Proposing is done through the API (see the runbook). Loaded
// after console.js, whose helpers (api, esc, state, $) it uses; it refreshes itself every 2 s.
"use strict";

const OUTCOMES = ["REFUNDED", "ALREADY_REFUNDED", "FAILED", "NEEDS_PERSON", "ORDERED", "PENDING"];

function batchButtons(b) {
  const acts = {
    PROPOSED: ["approve", "reject", "cancel"],
    APPROVED: ["pause"],
    RUNNING: ["pause"],
    PAUSED: ["resume", "cancel"],
  }[b.state] || [];
  return acts.map((a) => `<button class="batch-act" data-id="${b.id}" data-act="${a}">${a}</button>`).join(" ");
}

function batchBar(b) {
  const pct = b.totalItems ? Math.floor((100 * b.finishedItems) / b.totalItems) : 0;
  return `<span class="batch-bar" title="${b.finishedItems} of ${b.totalItems}">`
    + `<svg width="120" height="12"><rect width="120" height="12" fill="#e4e7f2"></rect>`
    + `<rect width="${(120 * pct) / 100}" height="12" fill="#4f6bd8"></rect></svg> ${pct}%</span>`;
}

async function renderRefundBatches() {
  if (!state.key) return;
  let batches;
  try {
    batches = await api("GET", "/ops/refund-batches?limit=20");
  } catch (e) {
    return; // not a person's key: the panel stays hidden
  }
  $("refund-batches").hidden = false;
  $("batches").querySelector("tbody").innerHTML = batches.map((b) => `
    <tr data-batch="${b.id}"><td>${b.id}</td><td>${esc(b.merchant)}</td><td>${esc(b.scene)}</td>
    <td class="bstate">${esc(b.state)}${b.held ? " (running here or there)" : ""}</td>
    <td>${batchBar(b)}</td>
    ${OUTCOMES.map((o) => `<td class="b-${o}">${b.progress[o]}</td>`).join("")}
    <td>${esc(b.proposer)}</td><td>${esc(b.approver)}</td><td>${esc(b.ticket)}</td>
    <td>${batchButtons(b)}</td></tr>`).join("")
    || `<tr><td colspan="15" class="muted">no batches</td></tr>`;
  document.querySelectorAll("#batches button.batch-act").forEach((btn) =>
    btn.addEventListener("click", () => batchAct(btn.dataset.id, btn.dataset.act)));
}

async function batchAct(id, act) {
  try {
    let body;
    if (act === "reject") {
      const reason = prompt("Why is this batch rejected?");
      if (!reason) return;
      body = { reason };
    }
    await api("POST", `/ops/refund-batches/${id}/${act}`, body);
    $("batch-msg").textContent = `batch ${id}: ${act} done`;
  } catch (e) {
    $("batch-msg").innerHTML = `<span class="bad">${esc(e.code || "error")}: ${esc(e.message)}</span>`;
  }
  await renderRefundBatches();
}

setInterval(() => renderRefundBatches().catch(() => {}), 2000);
