// The Analyse page's position drawn: the board (the editor's while editing,
// the move shown laid over it), the rack, the moves and the simulation.
import { marksOf, moveOverlay, moveSquares, renderBoard, renderRack } from "./board.js";
import { $, clear, h } from "./dom.js";
import { fmt } from "./format.js";
import { pos } from "./position-state.js";
import { pointsOf } from "./tiles.js";

function editorBoard() {
  // the position's BOARD with the editor's grid in place of its squares
  const squares = pos.grid.map((row) => row.map((t) => {
    if (!t) return null;
    return { letter: t.letter, blank: !!t.blank,
             points: t.blank ? 0 : (t.points ?? pointsOf(t.letter)) };
  }));
  return { ...pos.board, squares };
}

export function renderPosition() {
  const board = pos.grid ? editorBoard() : pos.board;
  const shown = pos.hover || pos.pinned;
  const marks = new Map();
  let overlay = [];
  if (shown && !pos.edit) {
    overlay = moveOverlay(shown, pos.hover ? "preview" : "chosen");
    marksOf(moveSquares(shown), "marked", marks);
  }
  renderBoard($("analysis-board"), board, {
    overlay, marks, cursor: pos.edit ? pos.cursor : null,
    onSquare: (r, c) => {
      if (!pos.edit) return;
      if (pos.cursor && pos.cursor.row === r && pos.cursor.col === c) {
        pos.cursor.dir = pos.cursor.dir === "across" ? "down" : "across";
      } else {
        pos.cursor = { row: r, col: c, dir: (pos.cursor && pos.cursor.dir) || "across" };
      }
      pos.pending = "";
      renderPosition();
    },
  });
  $("analysis-board").classList.toggle("editing", pos.edit);
  renderShownMove();
  const rack = pos.racks[0] || [];
  renderRack($("analysis-rack"), rack);
  $("edit-fields").hidden = !pos.edit;
  $("edit-help").hidden = !pos.edit;
  renderMoveTable();
  renderSimTable();
}

function moveRow(m, i, cells, testid) {
  const active = pos.pinned === m;
  return h("tr", {
    class: `move-row ${active ? "pinned" : ""} ${i === 0 ? "top" : ""}`,
    "data-testid": testid, "data-index": i, "data-move": m.move,
    onmouseenter: () => { pos.hover = m; renderPositionBoardOnly(); },
    onmouseleave: () => { pos.hover = null; renderPositionBoardOnly(); },
    onclick: () => { pos.pinned = m; pos.hover = null; renderPosition(); },
  }, cells);
}

// Hovering redraws the board only, so the table under the mouse stays put.
function renderPositionBoardOnly() {
  const board = pos.grid ? editorBoard() : pos.board;
  const shown = pos.hover || pos.pinned;
  const marks = new Map();
  const overlay = shown && !pos.edit ? moveOverlay(shown, pos.hover ? "preview" : "chosen")
                                     : [];
  if (shown && !pos.edit) marksOf(moveSquares(shown), "marked", marks);
  renderBoard($("analysis-board"), board, { overlay, marks });
  renderShownMove();
}

function renderShownMove() {
  const shown = pos.edit ? null : (pos.hover || pos.pinned);
  $("shown-move").textContent = shown
    ? `On the board: ${shown.move} · ${shown.score} points · equity ${fmt(shown.equity)}`
    : "";
}

function renderMoveTable() {
  const card = $("moves-card");
  const table = clear($("moves-table"));
  if (!pos.moves.length) {
    card.hidden = true;
    return;
  }
  card.hidden = false;
  const counted = pos.count !== null && pos.count !== undefined
    ? `${pos.count} legal placements` : "";
  // which leave values the equity adds to the score (the API says)
  const leaves = pos.leaves && pos.leaves !== "none" ? `leave values: ${pos.leaves}` : "";
  // the judge's word where a search decides (the endgame, the pre-endgame)
  const verdict = pos.verdict || { moves: [] };
  const best = verdict.moves && verdict.moves[0];
  const judged = verdict.valued_by && verdict.valued_by !== "static" && best
    ? `${verdict.valued_by}: best ${best.move} (${verdict.unit === "spread"
      ? `${best.value >= 0 ? "+" : ""}${fmt(best.value)} to the end of the game`
      : fmt(best.value)}, ${fmt(best.win_pct)} % wins)` : "";
  $("moves-count").textContent = [counted, leaves, judged, pos.adjustment]
    .filter(Boolean).join(" · ");
  table.append(h("tr", {}, h("th", {}, "#"), h("th", {}, "Move"), h("th", {}, "Score"),
    h("th", {}, "Leave"), h("th", {}, "Equity")));
  pos.moves.forEach((m, i) => table.append(moveRow(m, i, [
    h("td", { class: "rank" }, i + 1), h("td", { class: "mv" }, m.move),
    h("td", { class: "num" }, m.score), h("td", { class: "rack-text" }, m.leave ?? ""),
    h("td", { class: "num eq" }, fmt(m.equity))], "move-row")));
}

function renderSimTable() {
  const card = $("sim-card");
  const table = clear($("sim-table"));
  if (!pos.sim) {
    card.hidden = true;
    return;
  }
  card.hidden = false;
  $("sim-info").textContent = `${pos.sim.iterations ?? ""} iterations`;
  table.append(h("tr", {}, h("th", {}, "#"), h("th", {}, "Move"), h("th", {}, "Score"),
    h("th", {}, "Win %"), h("th", {}, "Equity"), h("th", {}, "Static"), h("th", {}, "Iter.")));
  (pos.sim.moves || []).forEach((m, i) => table.append(moveRow(m, i, [
    h("td", { class: "rank" }, i + 1), h("td", { class: "mv" }, m.move),
    h("td", { class: "num" }, m.score),
    h("td", { class: "num", "data-testid": "win-pct" }, fmt(m.win_pct)
      + (m.win_pct_stderr ? ` ±${fmt(m.win_pct_stderr)}` : "")),
    h("td", { class: "num eq" }, fmt(m.equity)
      + (m.stderr ? ` ±${fmt(m.stderr)}` : "")),
    h("td", { class: "num muted" }, fmt(m.static_equity)),
    h("td", { class: "num muted", "data-testid": "iterations" }, m.iterations ?? "")],
  "sim-row")));
}
