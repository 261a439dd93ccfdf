// The Clearway ops console: figures, recent transitions, the manual-review queue, a flow's
// timeline, and propose/approve for the right roles; the channel layer's accounts, recovery tasks
// and an order's attempts with their evidence. Every call carries the key typed in. Every list is
// a page ({items, nextCursor}, at most 100 rows) of every merchant's rows, each naming its
// merchant; "more" appends the next page.
"use strict";

const state = {
  key: sessionStorage.getItem("clearway.key") || "", selected: null, timer: null,
  ticks: 0, order: null, orderView: null, orderHeld: false,
};
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: Object.assign(
      { Authorization: "Bearer " + state.key },
      body ? { "Content-Type": "application/json" } : {}),
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const err = new Error((data && data.message) || res.statusText);
    err.code = data && data.code;
    err.status = res.status;
    throw err;
  }
  return data;
}

function esc(v) {
  return String(v == null ? "" : v).replace(/[&<>"']/g, (c) =>
    ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// ---- Paged lists ---------------------------------------------------------------------------
// A list shows its first page and refreshes it with the figures. "more" appends the next page and
// holds the list (no refresh moves the rows under a reader) until "latest" shows the first page
// again.

const lists = {};

function withCursor(path, cursor) {
  return path + (path.includes("?") ? "&" : "?") + "cursor=" + encodeURIComponent(cursor);
}

// name: the table's id; path(): the list's URL; pick(answer): the page in an answer; row(item):
// one row's HTML; empty: the text of an empty list; after(): wires the rows' handlers.
function pagedList(name, opts) {
  lists[name] = Object.assign({ pick: (d) => d, items: [], next: null, held: false }, opts);
}

function pager(name) {
  const table = $(name);
  let div = document.getElementById(name + "-pager");
  if (!div) {
    div = document.createElement("div");
    div.id = name + "-pager";
    div.className = "pager";
    div.innerHTML = `<span class="count"></span><button type="button" class="more" id="${name}-more">more</button>` +
      `<button type="button" class="latest" id="${name}-latest">back to latest</button>`;
    table.insertAdjacentElement("afterend", div);
    div.querySelector(".more").addEventListener("click", () => moreOf(name).catch(showError));
    div.querySelector(".latest").addEventListener("click", () => latestOf(name).catch(showError));
  }
  return div;
}

function drawList(name) {
  const l = lists[name];
  const cols = $(name).querySelectorAll("thead th").length;
  $(name).querySelector("tbody").innerHTML = l.items.map(l.row).join("")
    || `<tr><td colspan="${cols}" class="muted">${esc(l.empty)}</td></tr>`;
  const div = pager(name);
  div.querySelector(".count").textContent = l.next || l.held ? `${l.items.length} shown` : "";
  div.querySelector(".more").hidden = !l.next;
  div.querySelector(".latest").hidden = !l.held;
  if (l.after) l.after();
}

// Shows the first page (from `page` when the caller already has it), unless a reader holds more.
async function showFirst(name, page) {
  const l = lists[name];
  if (l.held) return;
  const p = page || l.pick(await api("GET", l.path()));
  l.items = p.items;
  l.next = p.nextCursor;
  drawList(name);
}

async function moreOf(name) {
  const l = lists[name];
  if (!l.next) return;
  const p = l.pick(await api("GET", withCursor(l.path(), l.next)));
  l.items = l.items.concat(p.items);
  l.next = p.nextCursor;
  l.held = true;
  drawList(name);
}

async function latestOf(name) {
  lists[name].held = false;
  await showFirst(name);
}

function showError(e) {
  $("status").innerHTML = `<span class="bad">${esc(e.code || "error")}: ${esc(e.message)}</span>`;
}

function bars(el, data) {
  const entries = Object.entries(data || {});
  if (!entries.length) { el.innerHTML = '<p class="muted">none yet</p>'; return; }
  const max = Math.max(1, ...entries.map(([, v]) => v));
  const row = 22, width = 300, label = 150;
  let svg = `<svg viewBox="0 0 ${width} ${entries.length * row}" role="img">`;
  entries.forEach(([k, v], i) => {
    const w = Math.max(1, ((width - label - 50) * v) / max);
    svg += `<text x="0" y="${i * row + 15}" font-size="11">${esc(k)}</text>`;
    svg += `<rect x="${label}" y="${i * row + 4}" width="${w}" height="14" fill="#4f6bd8"></rect>`;
    svg += `<text x="${label + w + 4}" y="${i * row + 15}" font-size="11" class="value">${Math.round(v)}</text>`;
  });
  el.innerHTML = svg + "</svg>";
}

async function refresh() {
  try {
    const s = await api("GET", "/ops/console/summary");
    $("status").textContent = "Live; refreshed " + new Date().toLocaleTimeString();
    $("figures").hidden = $("review").hidden = $("recent").hidden = $("abnormal").hidden =
      $("late-charges").hidden = false;
    bars($("chart-refunds"), s.refundsByStatus);
    bars($("chart-status"), s.flowsByStatus);
    bars($("chart-open"), s.openByState);
    bars($("chart-age"), s.oldestAgeSecondsByState);
    bars($("chart-calls"), s.externalCalls);
    bars($("chart-other"), Object.assign({},
      ...Object.entries(s.casConflicts).map(([k, v]) => ({ ["CAS " + k]: v })),
      ...Object.entries(s.callbacks).map(([k, v]) => ({ ["callback " + k]: v }))));
    $("backlog").textContent = Math.round(s.reviewBacklog);
    $("scanner").textContent = Math.round(s.scannerHits);
    // The channel panel reads wider tables: every fifth refresh (10 s) is enough at 3 a.m.
    const slow = state.ticks++ % 5 === 0;
    const channels = slow ? renderChannels() : Promise.resolve();
    // The reconciliation panel (recon.js) changes once a day and with each decision.
    const recon = slow && typeof renderRecon === "function" ? renderRecon() : Promise.resolve();
    await Promise.all(["queue", "transitions", "abnormal-refunds", "manual-late-charges"]
      .map((name) => showFirst(name)).concat([channels, recon,
        typeof renderOpsCommands === "function" ? renderOpsCommands() : Promise.resolve()]));
    if (state.selected) await renderDetail(state.selected);
  } catch (e) {
    $("status").innerHTML = `<span class="bad">${esc(e.code || "error")}: ${esc(e.message)}</span>`;
  }
}

function selectOnClick(name) {
  return () => document.querySelectorAll(`#${name} tr[data-flow]`).forEach((tr) =>
    tr.addEventListener("click", () => select(Number(tr.dataset.flow))));
}

pagedList("queue", {
  path: () => "/ops/review/flows",
  empty: "empty",
  row: (f) => `
    <tr class="clickable" data-flow="${f.flow.flowId}">
      <td>${f.flow.flowId}</td><td class="merchant">${esc(f.merchantId)}</td><td>${esc(f.flow.state)}</td>
      <td>${esc(f.reviewState)}</td><td>${esc(f.reviewReason)}</td><td>${esc(f.lastErrorCode)}</td>
      <td>${f.flow.amount} ${esc(f.flow.currency)}</td><td><button class="open">open</button></td>
    </tr>`,
  after: selectOnClick("queue"),
});

pagedList("abnormal-refunds", {
  path: () => "/ops/console/abnormal-refunds",
  empty: "none",
  row: (r) => `
    <tr class="clickable" data-flow="${r.flowId}"><td>${r.refundId}</td><td>${r.flowId}</td>
    <td class="merchant">${esc(r.merchantId)}</td><td>${esc(r.refundNo)}</td><td>${esc(r.kind)}</td>
    <td>${r.amount} ${esc(r.currency)}</td><td>${esc(r.lastErrorCode)}</td><td>${r.retryCount}</td></tr>`,
  after: selectOnClick("abnormal-refunds"),
});

pagedList("manual-late-charges", {
  path: () => "/ops/late-charges",
  pick: (d) => d.manual,
  empty: "none",
  row: (c) => `
    <tr class="clickable" data-flow="${c.flowId}"><td>${c.checkId}</td><td>${c.flowId}</td>
    <td class="merchant">${esc(c.merchantId)}</td><td>${esc(c.tradeOrderNo)}</td><td>${esc(c.source)}</td>
    <td>${esc(c.lastResult)}</td><td>${esc(c.lastErrorCode)}</td>
    <td>${esc(new Date(c.createdAt).toLocaleString())}</td></tr>`,
  after: selectOnClick("manual-late-charges"),
});

pagedList("transitions", {
  path: () => "/ops/console/transitions?limit=30",
  empty: "none yet",
  row: (t) => `
    <tr class="clickable" data-flow="${t.flowId}">
      <td>${esc(new Date(t.entry.at).toLocaleTimeString())}</td><td>${t.flowId}</td>
      <td class="merchant">${esc(t.merchantId)}</td><td>${esc(t.bizKey)}</td>
      <td>${esc(t.entry.fromStatus)}</td><td>${esc(t.entry.toStatus)}</td><td>${esc(t.entry.trigger)}</td>
      <td>${esc(t.entry.resultClass)}</td><td>${esc(t.entry.errorCode)}</td><td>${t.entry.elapsedMs}</td>
    </tr>`,
  after: selectOnClick("transitions"),
});

pagedList("timeline", {
  path: () => `/ops/review/flows/${state.selected}/history`,
  empty: "no transitions",
  row: (h) => `
    <tr><td>${esc(new Date(h.at).toLocaleTimeString())}</td><td>${esc(h.fromStatus)}</td>
    <td>${esc(h.toStatus)}</td><td>${h.version}</td><td>${esc(h.trigger)}</td>
    <td>${esc(h.resultClass)}</td><td>${esc(h.errorCode)}</td></tr>`,
});

pagedList("commands", {
  path: () => `/ops/review/flows/${state.selected}/commands`,
  empty: "no commands",
  row: (c) => `
    <tr data-command="${c.id}"><td>${c.id}</td><td>${esc(c.kind)}</td><td class="cstate">${esc(c.state)}</td>
    <td>${esc(c.operatorId)}</td><td>${esc(c.ticket)}</td><td>${esc(c.approverId)}</td>
    <td>${c.state === "PROPOSED" ? `<button class="approve" data-id="${c.id}">approve</button>
      <button class="reject" data-id="${c.id}">reject</button>` : ""}</td></tr>`,
  after: () => {
    document.querySelectorAll("#commands button.approve").forEach((b) =>
      b.addEventListener("click", () => decide(b.dataset.id, "approve")));
    document.querySelectorAll("#commands button.reject").forEach((b) =>
      b.addEventListener("click", () => decide(b.dataset.id, "reject")));
  },
});

pagedList("audit", {
  path: () => `/ops/review/flows/${state.selected}/audit`,
  empty: "nothing audited",
  row: (a) => `
    <tr><td>${esc(new Date(a.at).toLocaleString())}</td><td>${a.commandId}</td><td>${esc(a.actorId)}</td>
    <td>${esc(a.role)}</td><td>${esc(a.action)}</td><td>${esc(a.detail)}</td></tr>`,
});

async function select(flowId) {
  if (state.selected !== flowId) {
    ["timeline", "commands", "audit"].forEach((name) => { lists[name].held = false; });
  }
  state.selected = flowId;
  $("detail-msg").textContent = "";
  await renderDetail(flowId);
}

async function renderDetail(flowId) {
  const d = await api("GET", "/ops/review/flows/" + flowId);
  const f = d.flow;
  $("detail").hidden = false;
  $("detail-id").textContent = flowId;
  $("detail-facts").innerHTML = [
    ["merchant", f.merchantId], ["state", f.flow.state], ["client status", f.flow.status],
    ["review", f.reviewState], ["reason", f.reviewReason], ["last error", f.lastErrorCode],
    ["trade order", f.flow.tradeOrderNo], ["amount", f.flow.amount + " " + f.flow.currency],
    ["retries", f.retryCount],
  ].map(([k, v]) => `<span><b>${k}</b> <span id="fact-${k.replace(/ /g, "-")}">${esc(v)}</span></span>`).join("");
  await Promise.all([
    showFirst("timeline", d.history), showFirst("commands", d.commands), showFirst("audit", d.audit)]);
  $("propose").hidden = f.reviewState === "NONE" && !["PAYED"].includes(f.flow.state);
}

async function decide(commandId, action) {
  try {
    const body = action === "reject" ? { reason: "rejected in the console" } : undefined;
    const c = await api("POST", `/ops/review/commands/${commandId}/${action}`, body);
    $("detail-msg").textContent = `command ${c.id}: ${c.state}`;
  } catch (e) {
    $("detail-msg").innerHTML = `<span class="bad">${esc(e.code)}: ${esc(e.message)}</span>`;
  }
  await refresh();
}

$("propose").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    const c = await api("POST", `/ops/review/flows/${state.selected}/commands`, {
      kind: $("p-kind").value, ticket: $("p-ticket").value,
      reason: $("p-reason").value, evidence: $("p-evidence").value,
    });
    $("detail-msg").textContent = `command ${c.id}: ${c.state} (needs another person's approval)`;
  } catch (e) {
    $("detail-msg").innerHTML = `<span class="bad">${esc(e.code)}: ${esc(e.message)}</span>`;
  }
  await refresh();
});

// ---- Channels ---------------------------------------------------------------------------

function share(v) {
  return v == null ? "–" : (100 * v).toFixed(1) + "%";
}

function age(seconds) {
  if (seconds == null) return "–";
  if (seconds < 120) return seconds + " s";
  if (seconds < 7200) return Math.floor(seconds / 60) + " min " + (seconds % 60) + " s";
  return Math.floor(seconds / 3600) + " h " + Math.floor((seconds % 3600) / 60) + " min";
}

function time(at) {
  return at ? new Date(at).toLocaleString() : "";
}

function statusCounts(byStatus) {
  const parts = Object.entries(byStatus || {}).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
  return parts.length ? parts.join(", ") : "none";
}

function showOrderOnClick(name) {
  return () => document.querySelectorAll(`#${name} tr[data-order]`).forEach((tr) =>
    tr.addEventListener("click", () => showOrder(tr.dataset.order)));
}

pagedList("channel-compensations", {
  path: () => "/ops/console/channels",
  pick: (c) => c.compensations.manual,
  empty: "none",
  row: (m) => `
    <tr class="clickable" data-order="${esc(m.tradeOrderNo)}"><td>${m.attemptId}</td><td>${esc(m.tradeOrderNo)}</td>
    <td class="merchant">${esc(m.merchantId)}</td><td>${esc(m.refundNo)}</td><td>${m.amount}</td>
    <td>${esc(m.reason)}</td><td>${esc(m.lastError)}</td><td>${m.tries}</td></tr>`,
  after: showOrderOnClick("channel-compensations"),
});

pagedList("channel-tasks", {
  path: () => "/ops/console/channels/tasks",
  empty: "no open recovery tasks",
  row: (k) => `
    <tr class="clickable" data-order="${esc(k.tradeOrderNo)}"><td>${k.taskId}</td><td>${k.attemptId}</td>
    <td>${esc(k.tradeOrderNo)}</td><td class="merchant">${esc(k.merchantId)}</td>
    <td>${k.channelAccountId} ${esc(k.channel)} ${esc(k.accountRef)}</td>
    <td class="${k.status === "MANUAL" ? "bad" : ""}">${esc(k.status)}</td><td>${esc(k.strategy)}</td>
    <td>${k.attempts}</td><td>${age(k.ageSeconds)}</td><td>${esc(time(k.dueAt))}</td>
    <td>${esc(k.lastError)}</td><td>${esc(k.policyVersion)}</td></tr>`,
  after: showOrderOnClick("channel-tasks"),
});

async function renderChannels() {
  try {
    const c = await api("GET", "/ops/console/channels");
    $("channels").hidden = false;
    const t = c.totals, comp = c.compensations.byStatus;
    const denied = Object.entries(c.failoverDenied || {}).map(([k, v]) => `${k} ${Math.round(v)}`);
    $("channel-totals").innerHTML = [
      ["attempts (1 h)", t.attempts], ["failovers (1 h)", t.failovers],
      ["business retries (1 h)", t.businessRetries], ["open tasks", t.openTasks],
      ["oldest open task", age(t.oldestOpenTaskAgeSeconds)], ["MANUAL tasks", t.manualTasks],
      ["compensations", `PENDING ${comp.PENDING}, REFUNDED ${comp.REFUNDED}, MANUAL ${comp.MANUAL}`],
      ["failover denied", denied.length ? denied.join(", ") : "0"],
      ["multiple successes", Math.round(c.multipleSuccess)],
    ].map(([k, v]) => `<span><b>${esc(k)}</b> <span id="ch-${k.replace(/[^a-z]+/gi, "-")}">${esc(v)}</span></span>`).join("")
      + (comp.MANUAL > 0 ? ' <span class="bad">two charges: needs a person</span>' : "");
    $("channel-accounts").querySelector("tbody").innerHTML = c.accounts.map((a) => `
      <tr data-account="${a.id}"><td>${a.id}</td><td>${esc(a.channel)}</td><td>${esc(a.accountRef)}</td>
      <td>${esc(a.failureDomain)}</td><td>${esc(statusCounts(a.attemptsByStatus))}</td>
      <td class="unknown-share${a.unknownShare >= 0.05 ? " bad" : ""}" title="${a.unknownAnswers} of ${a.answers} answers">${share(a.unknownShare)}</td>
      <td>${a.openTasks}</td><td class="${a.oldestOpenTaskAgeSeconds > 900 ? "bad" : ""}">${age(a.oldestOpenTaskAgeSeconds)}</td>
      <td class="${a.manualTasks > 0 ? "bad" : ""}">${a.manualTasks}</td>
      <td class="${a.circuit === "OPEN" || !a.enabled ? "bad" : ""}">${esc(a.circuitNote)}</td></tr>`).join("")
      || '<tr><td colspan="10" class="muted">no channel accounts</td></tr>';
    const manual = c.compensations.manual;
    $("channel-compensations-box").hidden = manual.items.length === 0 && !lists["channel-compensations"].held;
    await Promise.all([showFirst("channel-compensations", manual), showFirst("channel-tasks")]);
    if (state.order && !state.orderHeld) {
      await renderOrder(state.order).catch((e) => {
        $("order-msg").innerHTML = `<span class="bad">${esc(e.code || "error")}: ${esc(e.message)}</span>`;
      });
    }
  } catch (e) {
    $("channels").hidden = false;
    $("channel-totals").innerHTML = `<span class="bad">${esc(e.code || "error")}: ${esc(e.message)}</span>`;
  }
}

async function showOrder(tradeOrderNo) {
  $("order-no").value = tradeOrderNo;
  state.order = tradeOrderNo;
  state.orderHeld = false;
  $("order-msg").textContent = "";
  try {
    await renderOrder(tradeOrderNo);
  } catch (e) {
    state.order = null;
    $("order-detail").hidden = true;
    $("order-msg").innerHTML = `<span class="bad">${esc(e.code || "error")}: ${esc(e.message)}</span>`;
  }
}

async function renderOrder(tradeOrderNo) {
  state.orderView = await api("GET", "/ops/console/channels/orders/" + encodeURIComponent(tradeOrderNo));
  drawOrder();
}

// The order's attempts (newest first) with their evidence (newest first); "more" appends the next
// page of either and holds the order until it is shown again.
function drawOrder() {
  const o = state.orderView;
  const attempts = o.attempts.items;
  $("order-detail").hidden = false;
  $("order-facts").innerHTML = [
    ["order", o.tradeOrderNo], ["merchant", o.merchantId], ["status", o.status],
    ["amount", o.amount + " " + o.currency], ["method", o.paymentMethod], ["closed", o.closedReason],
    ["created", time(o.createdAt)], ["attempts", attempts.length + (o.attempts.nextCursor ? "+" : "")],
  ].map(([k, v]) => `<span><b>${k}</b> <span id="order-${k}">${esc(v)}</span></span>`).join("");
  $("order-timeline").querySelector("tbody").innerHTML = attempts.map((a) => `
    <tr class="attempt" data-attempt="${a.attemptId}"><td>attempt ${a.attemptId} (#${a.seq})</td>
    <td>${a.channelAccountId} ${esc(a.channel)} ${esc(a.accountRef)}</td>
    <td>${esc(a.origin)}${a.previousAttemptId ? " after " + a.previousAttemptId : ""}</td>
    <td>${esc(a.status)}</td><td>${esc(a.certainty)}</td>
    <td>${a.recoveryTaskStatus ? "task " + esc(a.recoveryTaskStatus) : ""}${a.compensationStatus ? " compensation " + esc(a.compensationStatus) : ""}</td>
    <td>${esc(a.errorCode)}</td><td>${esc(time(a.createdAt))}</td><td></td>
    <td>${a.replayCount ? "replays " + a.replayCount : ""}</td></tr>` + a.evidence.items.map((e) => `
    <tr class="evidence"><td>evidence ${e.id}</td><td></td><td>${esc(e.source)}</td><td>${esc(e.operation)}</td>
    <td class="${e.certainty === "UNKNOWN" ? "bad" : ""}">${esc(e.certainty)}</td><td>${esc(e.providerStatus)}</td>
    <td>${esc(e.errorCode)}</td><td>${esc(time(e.observedAt))}</td><td>${esc(e.policyVersion)}</td>
    <td>${esc(e.requestId)}</td></tr>`).join("") + (a.evidence.nextCursor ? `
    <tr class="more-row"><td colspan="10"><button type="button" class="more-evidence" data-attempt="${a.attemptId}">more evidence of ${a.attemptId}</button></td></tr>` : "")).join("")
    + (o.attempts.nextCursor ? '<tr class="more-row"><td colspan="10"><button type="button" id="more-attempts">more attempts</button></td></tr>' : "")
    || '<tr><td colspan="10" class="muted">no attempts: closed before any charge request</td></tr>';
  document.querySelectorAll("#order-timeline button.more-evidence").forEach((b) =>
    b.addEventListener("click", () => moreEvidence(Number(b.dataset.attempt)).catch(showError)));
  const more = $("more-attempts");
  if (more) more.addEventListener("click", () => moreAttempts().catch(showError));
}

async function moreEvidence(attemptId) {
  const a = state.orderView.attempts.items.find((x) => x.attemptId === attemptId);
  const page = await api("GET", withCursor(
    `/ops/console/channels/attempts/${attemptId}/evidence`, a.evidence.nextCursor));
  a.evidence = { items: a.evidence.items.concat(page.items), nextCursor: page.nextCursor };
  state.orderHeld = true;
  drawOrder();
}

async function moreAttempts() {
  const o = state.orderView;
  const next = await api("GET", withCursor(
    "/ops/console/channels/orders/" + encodeURIComponent(o.tradeOrderNo), o.attempts.nextCursor));
  o.attempts = { items: o.attempts.items.concat(next.attempts.items), nextCursor: next.attempts.nextCursor };
  state.orderHeld = true;
  drawOrder();
}

$("order-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const no = $("order-no").value.trim();
  if (!no) return;
  if (!/^[A-Za-z0-9_]{1,64}$/.test(no)) {
    // The server refuses it too (422); a percent-encoded path would only be "not_found".
    state.order = null;
    $("order-detail").hidden = true;
    $("order-msg").innerHTML = '<span class="bad">invalid_trade_order_no: 1 to 64 letters, digits or underscores</span>';
    return;
  }
  showOrder(no);
});

$("key-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  // Another key may see other rows: every list starts again from its first page.
  Object.values(lists).forEach((l) => { l.held = false; });
  state.key = $("key").value.trim();
  sessionStorage.setItem("clearway.key", state.key);
  $("key").value = "";
  $("who").textContent = state.key ? "key set" : "";
  start();
});

function start() {
  if (state.timer) clearInterval(state.timer);
  state.ticks = 0;
  if (!state.key) return;
  refresh();
  state.timer = setInterval(refresh, 2000);
}

start();
