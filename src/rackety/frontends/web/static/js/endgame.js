// The Endgame page: an endgame or pre-endgame search of a position or of a
// record's turn.
import { api } from "./api.js";
import { marksOf, moveOverlay, moveSquares, renderBoard, renderRack } from "./board.js";
import { $, clear, h, showError } from "./dom.js";
import { fmt, signed } from "./format.js";
import { learnBoard, rackTiles } from "./tiles.js";
import { currentRoute } from "./views.js";

// The search runs on the server (POST /api/endgame or /api/preendgame, the
// position as CGP or a record and its turn); the view polls its state until
// it ends, and its Stop button stops it with the best found so far.
const eg = { kind: null, request: null, state: null, timer: null, shown: 0 };

export async function startSearch(kind, request, errorBox) {
  showError(errorBox, "");
  showError($("eg-error"), "");
  const old = eg.state;
  if (old && old.status === "running") {
    api(`/api/searches/${old.id}/stop`, { method: "POST" }).catch(() => {});
  }
  const seconds = Math.max(0.1, Math.min(60, Number($("eg-seconds").value) || 5));
  const body = { ...request, seconds };
  if (kind === "preendgame") {
    body.candidates = Math.max(1, Math.min(30, parseInt($("eg-candidates").value, 10) || 10));
  }
  try {
    const state = await api(`/api/${kind}`, { method: "POST", body });
    Object.assign(eg, { kind, request, state, shown: 0 });
    learnBoard(state.position.board);
    if (currentRoute().name !== "endgame") location.hash = "#endgame";
    else renderEndgame();
    pollSearch();
  } catch (err) {
    showError(errorBox, err.message);
  }
}

// A newer state of the search shown (an older search's is dropped).
function searchState(state) {
  if (!eg.state || eg.state.id !== state.id) return;
  eg.state = state;
  renderEndgame();
  pollSearch();
}

function pollSearch() {
  clearTimeout(eg.timer);
  const state = eg.state;
  if (!state || state.status !== "running") return;
  eg.timer = setTimeout(() => {
    api(`/api/searches/${state.id}`).then(searchState)
      .catch((err) => showError($("eg-error"), err.message));
  }, 300);
}

function stopSearch() {
  const state = eg.state;
  if (!state || state.status !== "running") return;
  $("btn-eg-stop").disabled = true;
  api(`/api/searches/${state.id}/stop`, { method: "POST" }).then(searchState)
    .catch((err) => showError($("eg-error"), err.message));
}

function searchProgress(s) {
  const p = s.progress || {};
  const time = `${fmt(s.elapsed, 1)} of ${fmt(s.seconds, 1)} s`;
  if (p.total) return [p.done / p.total, `${p.done} of ${p.total} ${p.what} · ${time}`];
  return [Math.min(1, s.elapsed / s.seconds), `${p.what || "searching"} · ${time}`];
}

export function renderEndgame() {
  const s = eg.state;
  const pre = eg.kind === "preendgame";
  const running = !!s && s.status === "running";
  $("btn-eg-again").disabled = !eg.request || running;
  $("btn-eg-stop").disabled = !running || s.stopping;
  $("eg-progress").hidden = !running;
  $("eg-result").hidden = !s || !s.result;
  if (!s) return;
  const where = s.turn ? `turn ${s.turn} of the record` : "the position";
  $("eg-title").textContent = pre ? "Pre-endgame" : "Endgame";
  $("eg-about").textContent = `${where} · ${s.lexicon} · ${s.position.bag} in the bag`;
  if (running) {
    const [part, text] = searchProgress(s);
    $("eg-bar").value = part;
    $("eg-progress-text").textContent = s.stopping ? "stopping…" : text;
  }
  if (s.status === "failed") showError($("eg-error"), s.error || "the search failed");
  const res = s.result;
  const rows = res ? (pre ? res.candidates : res.pv) || [] : [];
  const shown = Math.min(eg.shown, rows.length - 1);
  // the board: the candidate shown, or the principal variation up to the move shown
  const overlay = [];
  const marks = new Map();
  rows.forEach((m, i) => {
    if (pre ? i !== shown : i > shown) return;
    overlay.push(...moveOverlay(m, pre || m.side === "to move" ? "chosen" : "played"));
    if (i === shown) marksOf(moveSquares(m), "marked", marks);
  });
  renderBoard($("eg-board"), s.position.board, { overlay, marks });
  renderRack($("eg-rack"), rackTiles(s.position.racks[0]));
  renderRack($("eg-rack2"), rackTiles(s.position.racks[1]));
  const known = (s.position.racks[1] || []).length > 0;
  $("eg-rack2").hidden = !known;
  $("eg-rack2-label").textContent = known ? "opponent" : "opponent: unknown";
  const m = rows[shown];
  $("eg-shown").textContent = m ? `On the board: ${m.move} · ${m.score} points` : "";
  if (res) renderEndgameTable(s, res, rows, shown, pre);
}

function renderEndgameTable(s, res, rows, shown, pre) {
  const table = clear($("eg-table"));
  const stopped = s.status === "stopped" ? " · stopped" : "";
  const row = (m, i, cells) => h("tr", {
    class: `move-row ${i === shown ? "pinned" : ""} ${i === 0 ? "top" : ""}`,
    "data-testid": "eg-row", "data-index": i, "data-move": m.move,
    onclick: () => { eg.shown = i; renderEndgame(); },
  }, cells);
  if (pre) {
    const exact = res.exact ? "exact" : `${res.exact_endgames} of ${res.endgames} endgames exact`;
    $("eg-summary").textContent = `${rows.length} candidates · ${exact}${stopped} · `
      + `${fmt(res.seconds, 1)} s`;
    table.append(h("tr", {}, h("th", {}, "#"), h("th", {}, "Move"), h("th", {}, "Score"),
      h("th", {}, "Win %"), h("th", {}, "Spread"), h("th", {}, "Draws"),
      h("th", {}, "Exact"), h("th", {}, "How")));
    rows.forEach((m, i) => table.append(row(m, i, [
      h("td", { class: "rank" }, i + 1), h("td", { class: "mv" }, m.move),
      h("td", { class: "num" }, m.score),
      h("td", { class: "num", "data-testid": "eg-win" }, fmt(m.win_pct)),
      h("td", { class: "num eq" }, signed(m.spread_change, 2)),
      h("td", { class: "num" }, m.method === "rollouts" ? `${m.rollouts} rollouts`
        : m.draws === m.worlds ? m.draws : `${m.draws} of ${m.worlds}`),
      h("td", { class: "num" }, m.exact ? "yes" : m.method === "rollouts" ? "no"
        : `${m.exact_draws} of ${m.worlds}`),
      h("td", { class: "muted" }, m.method)])));
    return;
  }
  const how = res.exact ? "exact" : `depth ${res.depth} / not exact`;
  $("eg-summary").textContent = `value ${signed(res.value)} for the player to move · ${how}`
    + `${stopped} · ${res.nodes.toLocaleString()} nodes in ${fmt(res.seconds, 2)} s`;
  table.append(h("tr", {}, h("th", {}, "#"), h("th", {}, "Move"), h("th", {}, "Score"),
    h("th", {}, "Who")));
  rows.forEach((m, i) => table.append(row(m, i, [
    h("td", { class: "rank" }, i + 1), h("td", { class: "mv" }, m.move),
    h("td", { class: "num" }, m.score), h("td", { class: "muted" }, m.side)])));
}

$("btn-eg-stop").addEventListener("click", stopSearch);
$("btn-eg-again").addEventListener("click", () => {
  if (eg.request) startSearch(eg.kind, eg.request, $("eg-error"));
});
