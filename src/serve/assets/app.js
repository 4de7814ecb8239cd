// The Asalto explorer: draws a position, lists its moves with their values
// (from /api/v1/query, the object of `asalto query --json`), plays them,
// and keeps the position in the URL. Where the exact tables cannot value a
// position (HTTP 422) and floor files can bound it, it shows what they
// prove instead (/api/v1/bounds, the object of `asalto query --floor
// --json`), labelled as bounds. No rules live here: the moves and the
// positions they lead to come from /api/v1/moves.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const STEP = 46;
const MARGIN = 32;

const state = {
  board: null, // /api/v1/board
  variant: "assaut",
  history: [], // positions, in notation
  at: -1, // index of the position shown
  pos: null, // the position shown, parsed (null while unknown)
  moves: [], // /api/v1/moves .moves of the position shown
  values: null, // /api/v1/query of the position shown, or null
  bounds: null, // /api/v1/bounds of the position shown, where no value is known
  selected: null, // point name of the piece selected on the board
  token: 0, // the latest load; older answers are dropped
};

const xy = (p) => [MARGIN + p.file * STEP, MARGIN + (7 - p.rank) * STEP];

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

async function api(route, position) {
  const q = new URLSearchParams({ variant: state.variant, position });
  const r = await fetch(`/api/v1/${route}?${q}`);
  const body = await r.json();
  if (!r.ok) {
    const e = new Error(body.error || `HTTP ${r.status}`);
    e.status = r.status;
    throw e;
  }
  return body;
}

// The pieces of a position's notation: {points: name -> "S"|"O", side, huff}.
function parse(notation) {
  const [board, side, huff] = notation.trim().split(/\s+/);
  const points = {};
  board.split("/").forEach((row, i) => {
    const rank = 7 - i;
    const files = state.board.points.filter((p) => p.rank === rank).sort((a, b) => a.file - b.file);
    let f = 0;
    for (const c of row) {
      if (c >= "0" && c <= "9") f += Number(c);
      else if (files[f]) points[files[f++].name] = c;
    }
  });
  return { points, side, huff: huff && huff !== "-" ? huff.split(",") : [] };
}

// The points a move starts and ends on (a huff alone: the officer huffed).
function ends(move) {
  const huff = move.match(/^h([a-g][1-7])(?::|$)/);
  const rest = move.replace(/^h[a-g][1-7]:?/, "");
  if (!rest) return [huff[1], huff[1]];
  const pts = rest.split(/[-x]/);
  return [pts[0], pts[pts.length - 1]];
}

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const byName = Object.fromEntries(state.board.points.map((p) => [p.name, p]));
  const fort = state.board.points.filter((p) => p.fortress).map(xy);
  const xs = fort.map((c) => c[0]);
  const ys = fort.map((c) => c[1]);
  const pad = 14;
  el("rect", {
    class: "fortress",
    x: Math.min(...xs) - pad,
    y: Math.min(...ys) - pad,
    width: Math.max(...xs) - Math.min(...xs) + 2 * pad,
    height: Math.max(...ys) - Math.min(...ys) + 2 * pad,
    rx: 8,
  }, svg);
  for (const [a, b] of state.board.lines) {
    const [x1, y1] = xy(byName[a]);
    const [x2, y2] = xy(byName[b]);
    el("line", { class: "line", x1, y1, x2, y2 }, svg);
  }
  for (let f = 0; f < 7; f++) {
    el("text", { class: "label", x: MARGIN + f * STEP, y: 335 }, svg).textContent = "abcdefg"[f];
  }
  for (let r = 1; r <= 7; r++) {
    el("text", { class: "label", x: 8, y: MARGIN + (7 - r) * STEP + 4 }, svg).textContent = r;
  }
  const pos = state.pos;
  if (!pos) return;
  const from = new Map(); // start point -> the moves from it
  for (const m of state.moves) {
    const [a] = ends(m.move);
    if (!from.has(a)) from.set(a, []);
    from.get(a).push(m);
  }
  const targets = state.selected ? from.get(state.selected) || [] : [];
  for (const p of state.board.points) {
    const [x, y] = xy(p);
    const piece = pos.points[p.name];
    if (!piece) {
      el("circle", { class: "point", cx: x, cy: y, r: 3 }, svg);
    } else {
      const c = el("circle", {
        class: piece === "S" ? "soldier" : "officer",
        cx: x, cy: y, r: piece === "S" ? 12 : 15,
        "data-point": p.name, "data-piece": piece,
      }, svg);
      if (from.has(p.name)) {
        c.classList.add("movable");
        c.addEventListener("click", () => select(p.name));
      }
      if (state.selected === p.name) c.classList.add("selected");
    }
    if (pos.huff.includes(p.name)) {
      el("circle", { class: "huff", cx: x, cy: y, r: 20, "data-huff": p.name }, svg)
        .appendChild(el("title", {})).textContent = `the soldiers may huff ${p.name}`;
    }
  }
  const seen = new Set();
  for (const m of targets) {
    const [, b] = ends(m.move);
    if (seen.has(b)) continue;
    seen.add(b);
    const [x, y] = xy(byName[b]);
    el("circle", { class: "target", cx: x, cy: y, r: 9, "data-target": b }, svg)
      .addEventListener("click", () => target(b));
  }
}

function select(point) {
  state.selected = state.selected === point ? null : point;
  markCandidates([]);
  drawBoard();
}

// A click on a target: play the move if one goes there, else mark the
// moves that do (they differ by a huff) for a choice in the list.
function target(point) {
  const moves = state.moves.filter((m) => {
    const [a, b] = ends(m.move);
    return a === state.selected && b === point;
  });
  if (moves.length === 1) play(moves[0].move);
  else markCandidates(moves.map((m) => m.move));
}

function markCandidates(list) {
  for (const li of $("moves").children) {
    li.classList.toggle("candidate", list.includes(li.dataset.move));
  }
}

function valueText(result, plies) {
  if (plies === null || plies === undefined) return result;
  if (result === "draw") return "draw";
  return `${result} in ${plies} ${plies === 1 ? "ply" : "plies"}`;
}

function renderList() {
  const list = $("moves");
  list.replaceChildren();
  // Best first with values; in notation order without.
  const rows = state.values
    ? state.values.moves
    : state.bounds
      ? state.bounds.moves.map((m) => ({ move: m.move, bound: m.bracket }))
      : state.moves.map((m) => ({ move: m.move, result: "", plies: null }));
  for (const m of rows) {
    const li = document.createElement("li");
    li.dataset.move = m.move;
    if (m.result) li.className = m.result;
    if (m.bound) li.className = "bound";
    li.dataset.result = m.result || (m.bound ? m.bound.words : "");
    const b = document.createElement("button");
    b.type = "button";
    const name = document.createElement("span");
    name.className = "move";
    name.textContent = m.move;
    const value = document.createElement("span");
    value.className = "value";
    value.textContent = m.result
      ? valueText(m.result, m.plies)
      : m.bound ? m.bound.words : "?";
    b.append(name, value);
    const legal = state.moves.find((x) => x.move === m.move);
    if (legal && legal.fault) {
      const tag = document.createElement("span");
      tag.className = "fault";
      tag.textContent = "fault";
      tag.title = `a fault: the soldiers may then huff ${legal.huffable.join(" or ")}`;
      b.insertBefore(tag, value);
    }
    b.addEventListener("click", () => play(m.move));
    li.appendChild(b);
    list.appendChild(li);
  }
}

function renderSummary() {
  const shown = state.history[state.at];
  const pos = state.pos;
  const side = pos.side === "s" ? "soldiers" : "officers";
  $("position").textContent = shown;
  $("notation").value = shown;
  $("ply").textContent = `${state.at + 1} / ${state.history.length}`;
  $("back").disabled = state.at <= 0;
  $("forward").disabled = state.at >= state.history.length - 1;
  const v = state.values;
  const over = v && v.moves.length === 0;
  if (over) {
    const winner = (v.result === "win") === (pos.side === "s") ? "soldiers" : "officers";
    $("side").textContent = "Game over:";
    $("value").textContent = `${winner} won`;
    $("value").className = "";
  } else {
    $("side").textContent = `${side[0].toUpperCase()}${side.slice(1)} to move:`;
    $("value").textContent = v ? valueText(v.result, v.plies) : "…";
    $("value").className = v ? v.result : "";
    const b = state.bounds;
    if (!v && b) {
      const by = b.floors.map((f) => `${f.proves} (proved: ${f.floor_words})`).join("; ");
      $("value").textContent = `${b.bracket.words}${b.bracket.decided ? "" : " (not decided)"}, from the soldiers' side`;
      $("value").className = "bound";
      $("value").title = `bounds from the files above a floor: ${by}`;
    } else {
      $("value").title = "";
    }
  }
}

// An error in one short line; a long one (a refusal with its plan) is
// cut at its first sentence, the whole of it one click away.
function showError(message) {
  const box = $("error");
  box.hidden = !message;
  box.replaceChildren();
  if (!message) return;
  const cut = message.search(/[:.] /);
  if (message.length <= 160 || cut < 0) {
    box.textContent = message;
    return;
  }
  const more = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = message.slice(0, Math.min(cut, 157)) + "…";
  more.append(summary, message);
  box.appendChild(more);
}

// Show the position at state.at: its moves first, then their values.
async function load() {
  const token = ++state.token;
  const position = state.history[state.at];
  state.selected = null;
  state.values = null;
  state.bounds = null;
  state.moves = [];
  state.pos = null;
  showError("");
  const url = new URL(location.href);
  url.search = new URLSearchParams({ variant: state.variant, position }).toString();
  history.replaceState(null, "", url);
  document.body.dataset.state = "loading";
  let known = false; // the position parsed
  try {
    const moves = await api("moves", position);
    if (token !== state.token) return;
    known = true;
    // The server's spelling of the position (with its huff field).
    state.history[state.at] = moves.position;
    state.pos = parse(moves.position);
    state.moves = moves.moves;
    drawBoard();
    renderSummary();
    renderList();
    try {
      const values = await api("query", moves.position);
      if (token !== state.token) return;
      state.values = values;
    } catch (e) {
      // Beyond what the exact tables hold: what floor files prove, if any.
      if (e.status !== 422) throw e;
      let bounds = null;
      try {
        bounds = await api("bounds", moves.position);
      } catch (b) {
        throw e;
      }
      if (token !== state.token) return;
      state.bounds = bounds;
    }
  } catch (e) {
    if (token !== state.token) return;
    showError(e.message);
  }
  drawBoard();
  renderList();
  if (known) renderSummary();
  else for (const id of ["ply", "side", "value", "position"]) $(id).textContent = "";
  document.body.dataset.state = "ready";
}

function go(position) {
  state.history.splice(state.at + 1, Infinity, position);
  state.at = state.history.length - 1;
}

async function play(move) {
  const m = state.moves.find((x) => x.move === move);
  if (!m) return;
  go(m.result);
  $("status").textContent = `played ${move}`;
  if (!$("opponent").checked) return load();
  // The perfect opponent answers: the server's best move.
  const token = ++state.token;
  document.body.dataset.state = "loading";
  try {
    const best = await api("bestmove", m.result);
    if (token !== state.token) return;
    if (best.move) {
      go(best.after);
      $("status").textContent =
        `played ${move}; the perfect opponent answered ${best.move} (${valueText(best.result, best.plies)} for it)`;
    }
  } catch (e) {
    if (token !== state.token) return;
    $("status").textContent = `played ${move}; the perfect opponent cannot answer`;
  }
  return load();
}

function step(by) {
  const to = state.at + by;
  if (to < 0 || to >= state.history.length) return;
  state.at = to;
  $("status").textContent = "";
  load();
}

async function init() {
  const r = await fetch("/api/v1/board");
  state.board = await r.json();
  const params = new URLSearchParams(location.search);
  state.variant = params.get("variant") || state.board.variant;
  const select = $("variant");
  const names = state.board.presets.map((p) => p.name);
  if (!names.includes(state.variant)) names.push(state.variant);
  for (const n of names) {
    const o = document.createElement("option");
    o.value = n;
    o.textContent = n;
    const preset = state.board.presets.find((p) => p.name === n);
    if (preset) o.title = `${preset.switches}: ${preset.source}`;
    select.appendChild(o);
  }
  select.value = state.variant;
  select.addEventListener("change", () => {
    state.variant = select.value;
    load();
  });
  $("back").addEventListener("click", () => step(-1));
  $("forward").addEventListener("click", () => step(1));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") step(-1);
    if (e.key === "ArrowRight") step(1);
  });
  $("notation-form").addEventListener("submit", (e) => {
    e.preventDefault();
    go($("notation").value.trim());
    $("status").textContent = "";
    load();
  });
  $("copy").addEventListener("click", async () => {
    $("notation").select();
    try {
      await navigator.clipboard.writeText($("notation").value);
      $("status").textContent = "notation copied";
    } catch (e) {
      document.execCommand("copy");
    }
  });
  $("plot").addEventListener("change", () => {
    $("plot-img").src = `/report/${$("plot").value}`;
  });
  const opening = state.board.opening || { position: "start", note: null };
  if (!params.get("position") && opening.note) $("status").textContent = opening.note;
  go(params.get("position") || opening.position);
  drawBoard();
  await load();
}

init();
