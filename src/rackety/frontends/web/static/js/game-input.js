// The game's board and rack under the mouse: clicks put tiles down or pick
// them up, and drag and drop moves them.
import { $ } from "./dom.js";
import {
  canAct, game, isRecord, nextEmpty, occupied, placeTile, placedAt, takeBack,
} from "./game-state.js";
import { renderGame } from "./game-view.js";

export async function onGameSquare(r, c) {
  game.pending = "";
  if (!game.data || isRecord()) return;
  if (placedAt(r, c)) {
    takeBack(r, c);
    game.cursor = null;
    renderGame();
    return;
  }
  if (occupied(r, c) || !canAct()) return;
  if (game.exchange) return;
  if (game.selected !== null) {
    await placeTile(game.selected, r, c);
    game.cursor = null;
    renderGame();
    return;
  }
  // No tile in hand: the square becomes the typing cursor; clicking it
  // again turns the direction.
  if (game.cursor && game.cursor.row === r && game.cursor.col === c) {
    game.cursor.dir = game.cursor.dir === "across" ? "down" : "across";
  } else {
    game.cursor = { row: r, col: c, dir: (game.cursor && game.cursor.dir) || "across" };
  }
  renderGame();
}

export async function onRackTile(idx) {
  if (!canAct()) return;
  if (game.exchange) {
    if (game.exchange.has(idx)) game.exchange.delete(idx);
    else game.exchange.add(idx);
    renderGame();
    return;
  }
  if (game.cursor && !occupied(game.cursor.row, game.cursor.col)) {
    const { row, col, dir } = game.cursor;
    if (await placeTile(idx, row, col)) {
      const next = nextEmpty(row, col, dir);
      game.cursor = next ? { ...next, dir } : null;
    }
    renderGame();
    return;
  }
  game.selected = game.selected === idx ? null : idx;
  renderGame();
}

// Drag and drop (HTML5): rack -> board, board -> board, board -> rack, and
// within the rack to reorder it.
export function dragStartRack(e, idx) {
  if (!canAct() || game.exchange) {
    e.preventDefault();
    return;
  }
  game.drag = { src: "rack", idx };
  e.dataTransfer.effectAllowed = "move";
  e.dataTransfer.setData("text/plain", `rack:${idx}`);
  e.target.classList.add("dragging");
}

export function dragStartBoard(e, r, c) {
  game.drag = { src: "board", row: r, col: c };
  e.dataTransfer.effectAllowed = "move";
  e.dataTransfer.setData("text/plain", `board:${r},${c}`);
}

function dragEnd() {
  game.drag = null;
  document.querySelectorAll(".dragging, .drop-target, .drop-before")
    .forEach((n) => n.classList.remove("dragging", "drop-target", "drop-before"));
}

export async function dropOnSquare(r, c) {
  const d = game.drag;
  game.drag = null;
  if (!d || !canAct()) return;
  if (d.src === "rack") {
    await placeTile(d.idx, r, c);
  } else if (d.src === "board") {
    const p = placedAt(d.row, d.col);
    if (p && !occupied(r, c)) {
      p.row = r;
      p.col = c;
    }
  }
  game.cursor = null;
  renderGame();
}

export function dropOnRack(beforeIdx) {
  const d = game.drag;
  game.drag = null;
  if (!d) return;
  let idx = null;
  if (d.src === "rack") idx = d.idx;
  if (d.src === "board") {
    const p = placedAt(d.row, d.col);
    if (p) {
      idx = p.idx;
      takeBack(d.row, d.col);
    }
  }
  if (idx === null) return;
  if (beforeIdx !== idx) {
    const order = game.order.filter((i) => i !== idx);
    const at = beforeIdx === null ? order.length : order.indexOf(beforeIdx);
    order.splice(at < 0 ? order.length : at, 0, idx);
    game.order = order;
  }
  renderGame();
}

const rackBox = $("rack");
rackBox.addEventListener("dragover", (e) => {
  if (game.drag) e.preventDefault();
});
rackBox.addEventListener("drop", (e) => {
  e.preventDefault();
  if (e.target === rackBox) dropOnRack(null);
});
document.addEventListener("dragend", dragEnd);

export function shuffle() {
  const a = game.order.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  game.order = a;
  renderGame();
}
