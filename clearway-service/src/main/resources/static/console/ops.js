// The console's "Commands for cases that wait for a person" panel: an operator proposes a command
// on an ABNORMAL refund order, an attempt whose result cannot be known, or a compensation waiting
// for a person (with a ticket, a reason and evidence); a different person with the approver role
// approves or rejects the open proposals listed below. Flow commands (frozen or escalated flows)
// stay in the flow's detail. Loaded after console.js, whose helpers (api, esc, $, time) it uses;
// console.js calls renderOpsCommands() with each refresh.
"use strict";

// Each command, the kind of target it acts on, what its evidence is, and whether it names the
// amount the PSP charged (a charge of another amount refunded or handed to finance).
const OPS_KINDS = {
  RETRY_REFUND: ["REFUND_ORDER", "refund order id", "why a retry now"],
  CONFIRM_REFUNDED: ["REFUND_ORDER", "refund order id", "the PSP's refund reference"],
  CLOSE_REFUND: ["REFUND_ORDER", "refund order id", "proof that no money moved"],
  CONFIRM_ATTEMPT_SUCCEEDED: ["ATTEMPT", "attempt id", "the PSP's payment reference"],
  CONFIRM_ATTEMPT_FAILED: ["ATTEMPT", "attempt id", "proof that nothing was charged"],
  KEEP_MISMATCHED_CHARGE: ["ATTEMPT", "attempt id", "why the charge of another amount stands"],
  REFUND_MISMATCHED_CHARGE: ["ATTEMPT", "attempt id", "the PSP's charge and its amount", true],
  MISMATCH_TO_FINANCE: ["ATTEMPT", "attempt id", "finance ticket and the charge's amount", true],
  REFUND_CHARGE: ["COMPENSATION", "attempt id of the compensation", "why it can be refunded now"],
  KEEP_CHARGE: ["COMPENSATION", "attempt id of the compensation", "why the charge stands"],
  HAND_TO_FINANCE: ["COMPENSATION", "attempt id of the compensation", "finance ticket"],
};

function opsMessage(text, bad) {
  $("ops-msg").innerHTML = bad ? `<span class="bad">${esc(text)}</span>` : esc(text);
}

function opsError(e) {
  opsMessage(`${e.code || "error"}: ${e.message}`, true);
}

function opsKindChanged() {
  const [target, id, evidence, amount] = OPS_KINDS[$("o-kind").value];
  $("o-target-kind").textContent = target;
  $("o-target").placeholder = id;
  $("o-evidence").placeholder = evidence;
  $("o-amount").hidden = !amount;
  $("o-amount").required = !!amount;
}

async function renderOpsCommands() {
  let open;
  try {
    open = (await api("GET", "/ops/commands")).items;
  } catch (e) {
    if (e.status === 403 || e.status === 401) return;
    opsError(e);
    return;
  }
  $("ops-commands").hidden = false;
  $("ops-open").querySelector("tbody").innerHTML = open.map((c) => `
    <tr data-command="${c.id}"><td>${c.id}</td><td>${esc(c.targetKind)}</td><td>${c.targetId}</td>
    <td>${esc(c.kind)}</td><td>${esc(c.expectedStatus)} v${c.expectedVersion}</td>
    <td>${esc(c.operatorId)}</td><td>${esc(c.ticket)}</td><td>${esc(c.reason)}</td>
    <td>${esc(c.evidence)}</td><td>${esc(time(c.createdAt))}</td>
    <td><button class="approve" data-id="${c.id}">approve</button>
      <button class="reject" data-id="${c.id}">reject</button></td></tr>`).join("")
    || '<tr><td colspan="11" class="muted">no open proposals</td></tr>';
  document.querySelectorAll("#ops-open button.approve").forEach((b) =>
    b.addEventListener("click", () => decideOps(b.dataset.id, "approve")));
  document.querySelectorAll("#ops-open button.reject").forEach((b) =>
    b.addEventListener("click", () => decideOps(b.dataset.id, "reject")));
}

async function decideOps(commandId, action) {
  try {
    const body = action === "reject" ? { reason: "rejected in the console" } : undefined;
    const c = await api("POST", `/ops/commands/${commandId}/${action}`, body);
    opsMessage(`command ${c.id}: ${c.state}${c.result ? " (" + c.result + ")" : ""}`);
  } catch (e) {
    opsError(e);
  }
  await renderOpsCommands();
}

$("o-kind").innerHTML = Object.keys(OPS_KINDS).map((k) => `<option>${k}</option>`).join("");
$("o-kind").addEventListener("change", opsKindChanged);
opsKindChanged();

$("ops-propose").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    const takesAmount = OPS_KINDS[$("o-kind").value][3];
    const c = await api("POST", "/ops/commands", {
      kind: $("o-kind").value, targetId: Number($("o-target").value), ticket: $("o-ticket").value,
      reason: $("o-reason").value, evidence: $("o-evidence").value,
      amount: takesAmount ? Number($("o-amount").value) : undefined,
    });
    opsMessage(`command ${c.id}: ${c.state} (needs another person's approval)`);
  } catch (e) {
    opsError(e);
  }
  await renderOpsCommands();
});
