// The console's last hour: payments per minute by outcome, the share of external answers whose
// result stayed UNKNOWN, and the age of the oldest unfinished flow, one point per step from
// /ops/metrics/timeseries (sampled in the service; the last point is the running step). Drawn as
// plain SVG lines. Loaded after console.js, whose helpers (api, esc, state, $) it uses; it polls on
// its own and draws nothing without a key.
"use strict";

const LAST_HOUR_COLORS = { BIZ_SUCCESS: "#15803d", PAY_FAIL: "#b45309", REFUNDED: "#4f6bd8", CLOSED: "#6b7280" };
const LAST_HOUR_STEPS = 61;

// One SVG chart of several lines over the last hour's slots; values null are gaps.
function lastHourChart(el, lines, format) {
  const w = 300, h = 110, pad = 22;
  const max = Math.max(1e-9, ...lines.flatMap((l) => l.values.filter((v) => v != null)));
  const x = (i, n) => pad + ((LAST_HOUR_STEPS - n + i) / (LAST_HOUR_STEPS - 1)) * (w - pad - 4);
  const y = (v) => h - pad - (v / max) * (h - pad - 8);
  let svg = `<svg viewBox="0 0 ${w} ${h}" role="img">`
    + `<line x1="${pad}" y1="${h - pad}" x2="${w - 4}" y2="${h - pad}" stroke="#c9ced8"></line>`
    + `<text x="0" y="12" font-size="9" class="ts-max">${esc(format(max))}</text>`
    + `<text x="${pad}" y="${h - 8}" font-size="9">-60 min</text>`
    + `<text x="${w - 30}" y="${h - 8}" font-size="9">now</text>`;
  lines.forEach((l) => {
    const pts = l.values.map((v, i) => (v == null ? null : `${x(i, l.values.length).toFixed(1)},${y(v).toFixed(1)}`));
    const path = pts.filter((p) => p).join(" ");
    svg += `<polyline class="ts-line" data-series="${esc(l.name)}" fill="none" stroke="${l.color}" stroke-width="1.5" points="${path}"></polyline>`;
    l.values.forEach((v, i) => {
      if (v != null) {
        svg += `<circle class="ts-point" data-series="${esc(l.name)}" data-value="${v}" r="1.8" fill="${l.color}"`
          + ` cx="${x(i, l.values.length).toFixed(1)}" cy="${y(v).toFixed(1)}"></circle>`;
      }
    });
  });
  el.innerHTML = svg + "</svg>";
}

function lastHourLegend(el, entries) {
  el.innerHTML = entries.map(([name, value, color]) =>
    `<span class="ts-legend" data-series="${esc(name)}"><i style="background:${color}"></i>${esc(name)}`
    + ` <b class="ts-value">${esc(value)}</b></span>`).join("");
}

function percent(v) {
  return v == null ? "–" : `${(v * 100).toFixed(1)}%`;
}

async function renderLastHour() {
  if (!state.key) return;
  try {
    const s = await api("GET", "/ops/metrics/timeseries");
    $("lasthour").hidden = false;
    const points = s.points;
    const outcomes = Object.keys(LAST_HOUR_COLORS);
    const perMinute = 60 / s.stepSeconds;
    lastHourChart($("ts-payments"), outcomes.map((o) => ({
      name: o, color: LAST_HOUR_COLORS[o], values: points.map((p) => (p.payments[o] || 0) * perMinute),
    })), (v) => `${v.toFixed(1)}/min`);
    lastHourLegend($("ts-payments-legend"), outcomes.map((o) =>
      [o, points.reduce((n, p) => n + (p.payments[o] || 0), 0), LAST_HOUR_COLORS[o]]));
    lastHourChart($("ts-unknown"), [{ name: "UNKNOWN", color: "#b91c1c", values: points.map((p) => p.unknownShare) }], percent);
    const shares = points.map((p) => p.unknownShare).filter((v) => v != null);
    lastHourLegend($("ts-unknown-legend"), [["latest", percent(shares.length ? shares[shares.length - 1] : null), "#b91c1c"]]);
    lastHourChart($("ts-oldest"), [{ name: "oldest", color: "#4f6bd8", values: points.map((p) => p.oldestOpenAgeSeconds) }], (v) => `${Math.round(v)} s`);
    lastHourLegend($("ts-oldest-legend"), [["now", `${points[points.length - 1].oldestOpenAgeSeconds} s`, "#4f6bd8"]]);
    $("ts-steps").textContent = `${points.length - 1} ended steps of ${s.stepSeconds} s, and the running one`;
  } catch (e) {
    $("lasthour").hidden = false;
    $("ts-steps").innerHTML = `<span class="bad">${esc(e.code || "error")}: ${esc(e.message)}</span>`;
  }
}

$("key-form").addEventListener("submit", () => setTimeout(renderLastHour, 0));
setInterval(renderLastHour, 5000);
renderLastHour();
