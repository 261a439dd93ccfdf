// The console's Reconciliation panel: the last run of each account, the open differences by class
// with their amount and oldest age, and the tickets waiting for a person. A ticket opens its
// difference (facts, history, commands); an operator proposes how it is closed, and a different
// person with the approver role approves or rejects it. Loaded after console.js, whose helpers
// (api, esc, pagedList, showFirst, age, time) it uses; console.js calls renderRecon().
"use strict";

const recon = { selected: null };

function money(minor, currency) {
  return minor == null ? "–" : `${minor} ${currency || ""}`.trim();
}

pagedList("recon-tickets", {
  path: () => "/ops/reconciliation/tickets?limit=20",
  empty: "no tickets waiting",
  row: (d) => `
    <tr class="clickable" data-difference="${d.id}"><td>${d.id}</td><td>${esc(d.account)}</td>
    <td>${esc(d.statementDay)}</td><td>${esc(d.kind)}</td><td>${esc(d.tradeOrderNo)}</td>
    <td>${esc(money(d.statementAmountMinor, d.currency))}</td><td>${esc(money(d.localAmountMinor, d.currency))}</td>
    <td>${esc(d.confidence)}</td><td>${esc(d.mustConfirm)}</td><td>${age(d.ageSeconds)}</td></tr>`,
  after: () => document.querySelectorAll("#recon-tickets tr[data-difference]").forEach((tr) =>
    tr.addEventListener("click", () => selectDifference(Number(tr.dataset.difference)).catch(reconError))),
});

pagedList("recon-commands", {
  path: () => `/ops/reconciliation/differences/${recon.selected}`,
  pick: (d) => d.commands,
  empty: "no commands",
  row: (c) => `
    <tr data-command="${c.id}"><td>${c.id}</td><td>${esc(c.kind)}</td><td class="cstate">${esc(c.state)}</td>
    <td>${esc(c.operatorId)}</td><td>${esc(c.ticket)}</td><td>${esc(c.evidence)}</td>
    <td>${esc(c.approverId)}</td><td>${esc(c.result)}</td>
    <td>${c.state === "PROPOSED" ? `<button class="approve" data-id="${c.id}">approve</button>
      <button class="reject" data-id="${c.id}">reject</button>` : ""}</td></tr>`,
  after: () => {
    document.querySelectorAll("#recon-commands button.approve").forEach((b) =>
      b.addEventListener("click", () => decideTicket(b.dataset.id, "approve")));
    document.querySelectorAll("#recon-commands button.reject").forEach((b) =>
      b.addEventListener("click", () => decideTicket(b.dataset.id, "reject")));
  },
});

function reconError(e) {
  $("recon-msg").innerHTML = `<span class="bad">${esc(e.code || "error")}: ${esc(e.message)}</span>`;
}

async function renderRecon() {
  try {
    const s = await api("GET", "/ops/reconciliation/summary");
    $("reconciliation").hidden = false;
    const open = s.classes.reduce((n, c) => n + c.count, 0);
    $("recon-totals").innerHTML = [
      ["open differences", open], ["tickets", s.tickets], ["oldest open", age(s.oldestOpenAgeSeconds)],
    ].map(([k, v]) => `<span><b>${esc(k)}</b> <span id="rt-${k.replace(/[^a-z]+/gi, "-")}">${esc(v)}</span></span>`).join("")
      + (s.tickets > 0 ? ' <span class="bad">tickets wait for a person</span>' : "");
    $("recon-runs").querySelector("tbody").innerHTML = s.runs.map((r) => `
      <tr data-account="${esc(r.account)}"><td>${esc(r.account)}</td><td>${esc(r.day)}</td>
      <td class="${r.status === "FAILED" ? "bad" : ""}">${esc(r.status)}</td><td>${r.counts.lines}</td>
      <td>${r.counts.differences}</td><td>${r.counts.newDifferences}</td><td>${r.counts.autoRepaired}</td>
      <td>${r.counts.tickets}</td><td>${esc(time(r.finishedAt))}</td><td>${esc(r.error)}</td></tr>`).join("")
      || '<tr><td colspan="10" class="muted">no runs yet</td></tr>';
    $("recon-classes").querySelector("tbody").innerHTML = s.classes.map((c) => `
      <tr data-class="${esc(c.kind)}"><td>${esc(c.kind)}</td><td>${esc(c.currency)}</td><td class="count">${c.count}</td>
      <td class="amount">${c.amountMinor}</td><td class="${c.oldestAgeSeconds > 86400 ? "bad" : ""}">${age(c.oldestAgeSeconds)}</td></tr>`).join("")
      || '<tr><td colspan="5" class="muted">no open differences</td></tr>';
    await showFirst("recon-tickets");
    if (recon.selected) await renderDifference(recon.selected);
  } catch (e) {
    $("reconciliation").hidden = false;
    $("recon-totals").innerHTML = `<span class="bad">${esc(e.code || "error")}: ${esc(e.message)}</span>`;
  }
}

async function selectDifference(id) {
  if (recon.selected !== id) lists["recon-commands"].held = false;
  recon.selected = id;
  $("recon-msg").textContent = "";
  await renderDifference(id);
}

async function renderDifference(id) {
  const d = await api("GET", "/ops/reconciliation/differences/" + id);
  const v = d.difference;
  $("recon-detail").hidden = false;
  $("recon-detail-id").textContent = id;
  const line = d.statementLine;
  $("recon-facts").innerHTML = [
    ["state", v.state], ["class", v.kind], ["account", v.account], ["day", v.statementDay],
    ["trade order", v.tradeOrderNo], ["refund order", v.refundOrderNo],
    ["statement", money(v.statementAmountMinor, v.currency)], ["local", money(v.localAmountMinor, v.currency)],
    ["confidence", v.confidence], ["must confirm", v.mustConfirm], ["detail", v.detail],
    ["statement line", line ? `file ${line.fileId} line ${line.lineNo} ${line.kind || ""} ${line.pspReference || ""}` : "none"],
  ].map(([k, val]) => `<span><b>${esc(k)}</b> <span id="rf-${k.replace(/ /g, "-")}">${esc(val)}</span></span>`).join("");
  $("recon-history").querySelector("tbody").innerHTML = d.history.map((h) => `
    <tr><td>${esc(time(h.at))}</td><td>${esc(h.fromState)}</td><td>${esc(h.toState)}</td><td>${h.version}</td>
    <td>${esc(h.actor)}</td><td>${esc(h.detail)}</td></tr>`).join("")
    || '<tr><td colspan="6" class="muted">no moves</td></tr>';
  await showFirst("recon-commands", d.commands);
  const open = d.commands.items.some((c) => c.state === "PROPOSED");
  $("recon-propose").hidden = v.state !== "NEEDS_PERSON" || open;
}

async function decideTicket(commandId, action) {
  try {
    const body = action === "reject" ? { reason: "rejected in the console" } : undefined;
    const c = await api("POST", `/ops/reconciliation/commands/${commandId}/${action}`, body);
    $("recon-msg").textContent = `command ${c.id}: ${c.state}`;
  } catch (e) {
    reconError(e);
  }
  await renderRecon();
}

$("recon-propose").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    const c = await api("POST", `/ops/reconciliation/differences/${recon.selected}/commands`, {
      kind: $("rp-kind").value, ticket: $("rp-ticket").value,
      reason: $("rp-reason").value, evidence: $("rp-evidence").value,
    });
    $("recon-msg").textContent = `command ${c.id}: ${c.state} (needs another person's approval)`;
  } catch (e) {
    reconError(e);
  }
  await renderRecon();
});
