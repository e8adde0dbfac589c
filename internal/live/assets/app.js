// kbench's live page: polls /api/state once a second and draws its series as inline SVG.
"use strict";

const colors = { offered: "#999", achieved: "#1f77b4", consumed: "#2ca02c",
  p50: "#2ca02c", p99: "#ff7f0e", p999: "#d62728", e2e: "#8c564b", cpu: "#9467bd", lag: "#17becf",
  fault: "#d62728", healed: "#2ca02c" };
const points = [];
let seq = 0;
let timer = null;

function $(id) { return document.getElementById(id); }

function fmt(n, digits) {
  return n.toLocaleString("en-US", { maximumFractionDigits: digits || 0 });
}

function duration(s) {
  if (s < 0) return "?";
  s = Math.round(s);
  const h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60), sec = s % 60;
  return (h ? h + "h" : "") + (h || m ? m + "m" : "") + sec + "s";
}

// chart draws lines (each {name, values: [[t, v]...]}) into svg, with the axes' extremes as
// labels, and keeps each line's last value in a data- attribute; opts.marks are events drawn
// as vertical lines ({t, kind, detail}), opts.dots draws points instead of lines.
function chart(svg, lines, opts) {
  opts = opts || {};
  const W = 600, H = 200, L = 50, B = 18, T = 8, R = 8;
  let tmin = Infinity, tmax = -Infinity, vmax = opts.vmax || 0;
  for (const l of lines) for (const [t, v] of l.values) {
    tmin = Math.min(tmin, t); tmax = Math.max(tmax, t); vmax = Math.max(vmax, v);
  }
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  if (tmin === Infinity) return;
  if (tmax === tmin) tmax = tmin + 1;
  if (vmax <= 0) vmax = 1;
  const x = t => L + (t - tmin) / (tmax - tmin) * (W - L - R);
  const y = v => H - B - v / vmax * (H - B - T);
  const ns = "http://www.w3.org/2000/svg";
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    svg.appendChild(e);
    return e;
  };
  add("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#aaa" });
  add("line", { x1: L, y1: T, x2: L, y2: H - B, stroke: "#aaa" });
  add("text", { x: L - 4, y: T + 8, "text-anchor": "end" }, fmt(vmax, vmax < 10 ? 2 : 0));
  add("text", { x: L - 4, y: H - B, "text-anchor": "end" }, "0");
  add("text", { x: L, y: H - 4 }, duration(tmin));
  add("text", { x: W - R, y: H - 4, "text-anchor": "end" }, duration(tmax));
  for (const m of opts.marks || []) {
    if (m.t < tmin || m.t > tmax) continue;
    const line = add("line", { x1: x(m.t), y1: T, x2: x(m.t), y2: H - B, stroke: colors[m.kind] || "#333",
      "stroke-dasharray": "4 3", "data-mark": m.kind });
    const title = document.createElementNS(ns, "title");
    title.textContent = m.detail;
    line.appendChild(title);
  }
  for (const l of lines) {
    if (!l.values.length) continue;
    if (opts.dots) {
      for (const [t, v, pass] of l.values) {
        add("circle", { cx: x(t), cy: y(v), r: 4, fill: pass ? colors.consumed : colors.p999 });
      }
    } else {
      add("polyline", { points: l.values.map(([t, v]) => x(t).toFixed(1) + "," + y(v).toFixed(1)).join(" "),
        stroke: colors[l.name] || (l.name.startsWith("agent-") ? agentColor(+l.name.slice(6)) : "#333"), "data-series": l.title || l.name });
    }
    svg.setAttribute("data-last-" + l.name, l.values[l.values.length - 1][1]);
    svg.setAttribute("data-points-" + l.name, l.values.length);
  }
}

function series(role, field) {
  return points.filter(p => p.role === role && (field !== "offered" || p.offered > 0)).map(p => [p.t, p[field]]);
}

function render(state) {
  const st = state.status;
  $("study").textContent = st.study ? "· " + st.study : "";
  $("scenario").textContent = st.scenario ? st.scenario + " (" + st.index + " of " + st.scenarios + ")" : "-";
  $("group-card").hidden = !st.group;
  $("group").textContent = st.group || "";
  $("round").textContent = st.repeat ? st.repeat + " of " + st.repeats : "-";
  $("phase").textContent = st.phase;
  $("elapsed").textContent = duration(st.elapsed_s);
  $("eta").textContent = st.ended ? "-" : (st.scenario_left_s >= 0 ? duration(st.scenario_left_s) : "?") +
    (st.study_left ? " (study " + st.study_left + ")" : "");
  const prod = points.filter(p => p.role === "producer"), cons = points.filter(p => p.role === "consumer");
  const last = prod.length ? prod[prod.length - 1] : cons[cons.length - 1];
  if (last) {
    $("rate").textContent = fmt(last.achieved) + " records/s" + (last.offered ? " of " + fmt(last.offered) : "");
    $("errors").textContent = fmt(last.failed || 0) + " / " + fmt(state.unsent);
    if (last.broker_cpu_cores !== undefined) $("cpu").textContent = fmt(last.broker_cpu_cores, 2) + " cores";
  }
  const agents = [...new Set(points.filter(p => p.role === "agent").map(p => p.agent))].sort();
  chart($("throughput"), [
    { name: "offered", values: series("producer", "offered") },
    { name: "achieved", values: series("producer", "achieved") },
    { name: "consumed", values: series("consumer", "achieved") },
    ...agents.map((a, i) => ({ name: "agent-" + i, title: a,
      values: points.filter(p => p.role === "agent" && p.agent === a).map(p => [p.t, p.achieved]) })),
  ], { marks: state.marks });
  renderAgents(agents, st.ended);
  const latRole = prod.length ? "producer" : "consumer";
  const lat = ["p50", "p99", "p999"].map(q => ({ name: q, values: series(latRole, q + "_ms") }));
  if (prod.length && cons.length) lat.push({ name: "e2e", values: series("consumer", "p99_ms") });
  chart($("latency"), lat, { marks: state.marks });
  const lag = cons.filter(p => p.lag !== undefined).map(p => [p.t, p.lag]);
  $("lag-fig").hidden = !lag.length;
  if (lag.length) chart($("lag"), [{ name: "lag", values: lag }]);
  $("marks").replaceChildren(...state.marks.map(m => {
    const li = document.createElement("li");
    li.textContent = m.detail;
    li.className = m.kind;
    return li;
  }));
  if (state.verified) {
    $("verified").hidden = false;
    $("verified-counts").textContent = ["sent", "acknowledged", "failed", "unsent", "read", "lost", "duplicated",
      "reordered", "inconsistent", "unexpected"].filter(k => k in state.verified).map(k => k + " " + fmt(state.verified[k])).join(", ");
  }
  const cpu = points.filter(p => p.broker_cpu_cores !== undefined).map(p => [p.t, p.broker_cpu_cores]);
  $("cpu-fig").hidden = !cpu.length; // brokers kbench does not sample (another cluster) have none
  chart($("brokercpu"), [{ name: "cpu", values: cpu }]);
  if (state.trials.length) {
    $("ladder-fig").hidden = false;
    chart($("ladder"), [{ name: "trials", values: state.trials.map(t => [t.achieved, t.p99_ms, t.pass]) }], { dots: true });
    $("trials").replaceChildren(...state.trials.map(t => {
      const li = document.createElement("li");
      li.textContent = "trial " + t.n + " (" + t.phase + "): offered " + (t.offered ? fmt(t.offered) : "unthrottled") +
        ", achieved " + fmt(t.achieved) + " records/s, p99 " + fmt(t.p99_ms, 1) + " ms: " + (t.pass ? "pass" : "fail");
      li.className = t.pass ? "pass" : "fail";
      return li;
    }));
  }
  $("brokers").hidden = !state.brokers.length;
  const body = document.querySelector("#brokers tbody");
  body.replaceChildren(...state.brokers.map(b => {
    const tr = document.createElement("tr");
    for (const v of [b.id, b.cpu_cores !== undefined ? fmt(b.cpu_cores, 2) : "-", b.cpu_pct !== undefined ? fmt(b.cpu_pct, 0) : "-",
      b.disk_write_bytes_per_sec !== undefined ? fmt(b.disk_write_bytes_per_sec / 1e6, 1) : "-"]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    return tr;
  }));
  if (st.ended) {
    $("ended").hidden = false;
    $("outcome").textContent = st.outcome ? "(" + st.outcome + ")" : "";
    if (st.report) { $("report").hidden = false; $("report").href = st.report; }
  }
}

// renderAgents lists each agent's latest rate; an agent whose last tick is over 3 s older
// than the newest tick of the run is shown silent (the coordinator aborts the scenario).
function renderAgents(agents, ended) {
  const newest = points.length ? points[points.length - 1].t : 0;
  $("agents").replaceChildren(...agents.map((a, i) => {
    const own = points.filter(p => p.role === "agent" && p.agent === a);
    const last = own[own.length - 1];
    const silent = !ended && newest - last.t > 3;
    const li = document.createElement("li");
    li.style.color = agentColor(i);
    li.textContent = a + ": " + fmt(last.achieved) + " records/s" + (silent ? " (silent for " + duration(newest - last.t) + ")" : "");
    li.className = silent ? "silent" : "";
    return li;
  }));
}

function agentColor(i) {
  return ["#17becf", "#bcbd22", "#e377c2", "#7f7f7f", "#8c564b", "#9467bd"][i % 6];
}

async function poll() {
  let state;
  try {
    const res = await fetch("/api/state?since=" + seq, { cache: "no-store" });
    state = await res.json();
  } catch (e) {
    $("phase").textContent = "disconnected";
    return;
  }
  for (const p of state.points) { points.push(p); seq = p.seq; }
  render(state);
  if (state.status.ended) return; // the server closes soon after: stop asking
  timer = setTimeout(poll, 1000);
}

poll();
