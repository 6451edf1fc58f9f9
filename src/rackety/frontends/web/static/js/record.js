// The Analyse page's game record (GCG): its analysis turn by turn (a search,
// POST /api/gcg/analysis, polled), each turn's board with the move played or
// the best, and a turn's endgame or pre-endgame.
import { api } from "./api.js";
import { marksOf, moveOverlay, moveSquares, renderBoard, renderRack } from "./board.js";
import { $, clear, h, readFileText, showError } from "./dom.js";
import { startSearch } from "./endgame.js";
import { fmt } from "./format.js";
import { lexiconChoice } from "./options.js";
import { analysePosition } from "./position.js";
import { selectTab } from "./tabs.js";
import { learnBoard, rackTiles } from "./tiles.js";

export const gcg = { data: null, index: 0, show: "played", text: "", lexicon: null };

export async function analyseGcg() {
  showError($("gcg-error"), "");
  const text = $("gcg-input").value;
  if (!text.trim()) {
    showError($("gcg-error"), "Choose a GCG file or paste one first.");
    return;
  }
  const button = $("btn-gcg-analyze");
  button.disabled = true;
  button.textContent = "Analysing…";
  try {
    // a search: the turns assessed so far while it runs (the endgames and
    // pre-endgames are solved, a few seconds each), then the analysis
    let state = await api("/api/gcg/analysis", { method: "POST", body: {
      gcg: text, lexicon: lexiconChoice($("gcg-lexicon")) } });
    while (state.status === "running") {
      const p = state.progress || {};
      button.textContent = p.total ? `Analysing… ${p.done} of ${p.total} ${p.what}`
        : `Analysing… ${p.what || ""}`;
      await new Promise((resolve) => setTimeout(resolve, 400));
      state = await api(`/api/searches/${state.id}`);
    }
    if (state.status === "failed" || !state.result) {
      throw new Error(state.error || "the analysis did not finish");
    }
    const data = state.result;
    gcg.data = data;
    gcg.text = text; // what the endgame of a turn is asked for
    gcg.lexicon = lexiconChoice($("gcg-lexicon"));
    gcg.index = 0;
    gcg.show = "played";
    for (const t of data.turns || []) learnBoard(t.board);
    renderGcg();
  } catch (err) {
    showError($("gcg-error"), err.message);
  } finally {
    button.disabled = false;
    button.textContent = "Analyse the game";
  }
}

export function gcgGo(index) {
  if (!gcg.data) return;
  const last = (gcg.data.turns || []).length; // == the final position
  gcg.index = Math.max(0, Math.min(last, index));
  renderGcg();
  const item = document.querySelector(`[data-testid="turn-item"][data-index="${gcg.index}"]`);
  if (item) item.scrollIntoView({ block: "nearest" });
}

function describeMove(m) {
  if (!m) return "—";
  const eq = m.equity !== undefined && m.equity !== null ? `, equity ${fmt(m.equity)}` : "";
  return `${m.move} (${m.score}${eq})`;
}

// A turn as written in the record when the engine has no move for it (a
// phony, a challenge, the end of the game).
function turnText(t) {
  if (t.played) return t.played.move;
  const kind = String(t.kind || "").replace(/_/g, " ");
  if (t.written && t.kind === "play") return t.written;
  if (t.written) return `${kind}: ${t.written}`;
  return kind;
}

export function renderGcg() {
  const data = gcg.data;
  const has = !!data;
  $("gcg-nav").hidden = !has;
  $("turn-info").hidden = !has;
  $("turns-card").hidden = !has;
  $("gcg-summary-card").hidden = !has;
  if (!has) {
    clear($("gcg-board"));
    clear($("gcg-rack"));
    return;
  }
  const turns = data.turns || [];
  const final = gcg.index >= turns.length;
  const turn = final ? null : turns[gcg.index];
  // the board
  const board = final ? data.final && data.final.board : turn.board;
  const move = turn ? (gcg.show === "best" ? turn.best : turn.played) : null;
  const marks = new Map();
  const overlay = moveOverlay(move, gcg.show === "best" ? "best" : "played");
  marksOf(moveSquares(move), gcg.show === "best" ? "marked best" : "marked played", marks);
  renderBoard($("gcg-board"), board, { overlay, marks });
  renderRack($("gcg-rack"), rackTiles(turn ? turn.rack : ""));
  $("turn-counter").textContent = final ? `final position` :
    `turn ${gcg.index + 1} of ${turns.length}`;
  $("btn-prev").disabled = gcg.index <= 0;
  $("btn-next").disabled = final;
  $("btn-show-played").classList.toggle("active", gcg.show === "played");
  $("btn-show-best").classList.toggle("active", gcg.show === "best");
  $("btn-turn-position").disabled = final || !turn.cgp;
  $("btn-turn-endgame").disabled = final;
  $("btn-turn-preendgame").disabled = final;
  // the turn
  const info = clear($("turn-info"));
  if (final) {
    const scores = (data.final && data.final.scores) || [];
    info.append(h("h3", {}, "Final position"),
      h("p", {}, (data.players || []).map((p, i) => `${p} ${scores[i] ?? ""}`).join(" · ")));
  } else {
    const lost = turn.equity_lost;
    info.append(
      h("h3", {}, `${turn.player}`, h("span", { class: "muted" }, ` · ${turn.kind}`)),
      h("dl", { class: "turn-facts" },
        h("dt", {}, "Rack"), h("dd", { class: "rack-text" }, turn.rack || "—"),
        h("dt", {}, "Played"), h("dd", { "data-testid": "turn-played" },
          turn.played ? describeMove(turn.played) : turnText(turn)),
        h("dt", {}, "Best"), h("dd", { "data-testid": "turn-best" }, describeMove(turn.best)),
        h("dt", {}, turn.unit === "spread" ? "Points lost" : "Equity lost"), h("dd", {
          "data-testid": "turn-lost", "data-value": lost ?? "",
          class: lost > 0.05 ? "lost" : "ok",
        }, lost === null || lost === undefined ? "—" : fmt(lost)),
        h("dt", {}, "Win % lost"), h("dd", { "data-testid": "turn-win-lost" },
          turn.win_pct_lost === null || turn.win_pct_lost === undefined ? "—"
            : `${fmt(turn.win_pct_lost)}${turn.mistake && turn.mistake !== "none"
              ? ` · ${turn.mistake} mistake` : ""}`),
        h("dt", {}, "Valued by"), h("dd", { "data-testid": "turn-valued-by" },
          turn.valued_by || (turn.why_not ? `not assessed: ${turn.why_not}` : "—"))));
  }
  // the list of turns
  const list = clear($("turn-list"));
  list.append(h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Move"),
    h("th", {}, "Best"), h("th", {}, "Lost")));
  turns.forEach((t, i) => {
    const lost = t.equity_lost;
    list.append(h("tr", {
      class: `turn-row ${i === gcg.index ? "current" : ""} ${
        t.mistake === "medium" || t.mistake === "large" ? "blunder" : ""}`,
      "data-testid": "turn-item", "data-index": i, onclick: () => gcgGo(i),
    },
    h("td", { class: "rank" }, i + 1), h("td", { class: "who" }, t.player),
    h("td", { class: "mv" }, turnText(t)),
    h("td", { class: "mv muted" }, t.best ? t.best.move : ""),
    h("td", { class: "num" }, lost === null || lost === undefined ? "" : fmt(lost))));
  });
  list.append(h("tr", {
    class: `turn-row ${final ? "current" : ""}`, "data-testid": "turn-item",
    "data-index": turns.length, onclick: () => gcgGo(turns.length),
  }, h("td", {}, ""), h("td", { colspan: 4 }, "final position")));
  // the summary
  const summary = clear($("gcg-summary"));
  summary.append(h("tr", {}, h("th", {}, "Player"), h("th", {}, "Turns"),
    h("th", {}, "Equity lost"), h("th", {}, "Per turn"), h("th", {}, "Win % lost"),
    h("th", {}, "Mistake Index")));
  for (const s of data.summary || []) {
    summary.append(h("tr", { "data-testid": "summary-row" },
      h("td", {}, s.player), h("td", { class: "num" }, s.turns),
      h("td", { class: "num" }, fmt(s.equity_lost)),
      h("td", { class: "num" }, s.turns ? fmt(s.equity_lost / s.turns, 2) : ""),
      h("td", { class: "num" }, fmt(s.win_pct_lost)),
      h("td", { class: "num", "data-testid": "mistake-index" }, fmt(s.mistake_index))));
  }
}

$("btn-gcg-analyze").addEventListener("click", analyseGcg);
$("btn-prev").addEventListener("click", () => gcgGo(gcg.index - 1));
$("btn-next").addEventListener("click", () => gcgGo(gcg.index + 1));
$("btn-show-played").addEventListener("click", () => { gcg.show = "played"; renderGcg(); });
$("btn-show-best").addEventListener("click", () => { gcg.show = "best"; renderGcg(); });
$("btn-turn-position").addEventListener("click", () => {
  const turn = gcg.data && gcg.data.turns[gcg.index];
  if (!turn || !turn.cgp) return;
  $("cgp-input").value = turn.cgp;
  selectTab("position");
  analysePosition();
});
$("gcg-file").addEventListener("change", async (e) => {
  try {
    const text = await readFileText(e.target);
    if (text !== null) {
      $("gcg-input").value = text;
      analyseGcg();
    }
  } catch (err) {
    showError($("gcg-error"), err.message);
  }
});

// The endgame or pre-endgame (KIND) of the turn shown, on the Endgame page.
function turnSearch(kind) {
  const turn = gcg.data && (gcg.data.turns || [])[gcg.index];
  if (!turn) return;
  // the record's event (1-based), which the list of turns shows in order
  startSearch(kind, { gcg: gcg.text, turn: (turn.index ?? gcg.index) + 1,
                      lexicon: gcg.lexicon }, $("gcg-error"));
}

$("btn-turn-endgame").addEventListener("click", () => turnSearch("endgame"));
$("btn-turn-preendgame").addEventListener("click", () => turnSearch("preendgame"));
