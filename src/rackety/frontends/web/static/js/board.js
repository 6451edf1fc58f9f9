// The board and racks drawn from the API's BOARD and TILE shapes, with
// moves laid over them.
import { clear, h } from "./dom.js";
import { pointsOf } from "./tiles.js";

export function key(r, c) {
  return `${r},${c}`;
}

const PREMIUM_LABELS = { TW: "TW", DW: "DW", TL: "TL", DL: "DL", QW: "QW", QL: "QL" };

export function tileNode(tile, extra = "", attrs = {}) {
  const label = tile.letter || "";
  const cls = ["tile"];
  if (tile.blank) cls.push("blank");
  if (label.length > 1 && label !== "?") cls.push(label.length > 2 ? "tri" : "multi");
  if (extra) cls.push(extra);
  const shown = tile.blank && label !== "?" ? label.toLowerCase() : label;
  const points = tile.blank ? "" : (tile.points ?? "");
  return h("div", { class: cls.join(" "), ...attrs },
    h("span", { class: "letter" }, shown),
    h("span", { class: "points" }, points === 0 ? "" : points));
}

// Draw BOARD into holder. opts:
//   overlay:  [{row, col, letter, points, blank, cls, attrs}] tiles drawn on empty squares
//   marks:    Map "r,c" -> class added to the square (e.g. "last", "marked")
//   cursor:   {row, col, dir: "across"|"down"}
//   onSquare: (row, col, event) => ...
//   onDrop:   (row, col, event) => ...   (squares become drop targets)
//   animate:  Set of "r,c" whose tiles play the arrival animation
export function renderBoard(holder, board, opts = {}) {
  clear(holder);
  if (!board) return;
  const n = board.size;
  // column letters and row numbers from the server, unless they are not
  // one label per line
  const distinct = (xs) => Array.isArray(xs) && xs.length === n && new Set(xs).size === n;
  const cols = distinct(board.columns) ? board.columns
    : [...Array(n)].map((_, i) => String.fromCharCode(65 + i));
  const rows = distinct(board.rows) ? board.rows : [...Array(n)].map((_, i) => String(i + 1));
  const grid = h("div", { class: "board", "data-size": n });
  grid.style.setProperty("--n", n);
  // a square: at most 570/n px, the height of the window, and the width of the
  // column (cqi, when the layout is one column: a phone), which holds the
  // coordinates (0.55 of a square), n squares, n gaps of 2px and 12px of padding
  grid.style.setProperty("--sq",
    `max(12px, min(${Math.floor(570 / n)}px, calc((100vh - 240px) / ${n + 1}), ` +
    `calc((100cqi - ${2 * n + 13}px) / ${n + 0.55})))`);
  const overlay = new Map();
  for (const t of opts.overlay || []) overlay.set(key(t.row, t.col), t);
  const marks = opts.marks || new Map();
  const animate = opts.animate || new Set();
  const start = board.start || [Math.floor(n / 2), Math.floor(n / 2)];

  grid.append(h("div", { class: "coord corner" }));
  for (let c = 0; c < n; c++) grid.append(h("div", { class: "coord col" }, cols[c]));
  for (let r = 0; r < n; r++) {
    grid.append(h("div", { class: "coord row" }, rows[r]));
    for (let c = 0; c < n; c++) {
      const premium = (board.premiums && board.premiums[r] && board.premiums[r][c]) || "";
      const tile = board.squares && board.squares[r] ? board.squares[r][c] : null;
      const k = key(r, c);
      const cls = ["sq"];
      if (premium) cls.push(`prem-${premium}`);
      if (r === start[0] && c === start[1]) cls.push("start");
      if (marks.has(k)) cls.push(marks.get(k));
      const sq = h("div", {
        class: cls.join(" "), "data-testid": `sq-${r}-${c}`, "data-row": r, "data-col": c,
        "data-premium": premium || null, title: `${rows[r]}${cols[c]}`,
      });
      if (tile) {
        sq.classList.add("filled");
        sq.dataset.letter = tile.letter;
        sq.append(tileNode(tile, animate.has(k) ? "arrive" : ""));
      } else if (overlay.has(k)) {
        const t = overlay.get(k);
        sq.classList.add("filled", "overlaid");
        sq.dataset.letter = t.letter;
        sq.append(tileNode(t, t.cls || "", t.attrs || {}));
      } else if (r === start[0] && c === start[1]) {
        sq.append(h("span", { class: "prem-label star" }, "★"));
      } else if (premium) {
        sq.append(h("span", { class: "prem-label" }, PREMIUM_LABELS[premium] || premium));
      }
      if (opts.cursor && opts.cursor.row === r && opts.cursor.col === c) {
        sq.classList.add("cursor");
        sq.append(h("span", { class: `cursor-arrow ${opts.cursor.dir}` },
          opts.cursor.dir === "down" ? "▼" : "▶"));
      }
      if (opts.onSquare) sq.addEventListener("click", (e) => opts.onSquare(r, c, e));
      if (opts.onDrop) {
        sq.addEventListener("dragover", (e) => {
          if (!tile && !overlay.has(k)) {
            e.preventDefault();
            e.dataTransfer.dropEffect = "move";
            sq.classList.add("drop-target");
          }
        });
        sq.addEventListener("dragleave", () => sq.classList.remove("drop-target"));
        sq.addEventListener("drop", (e) => {
          e.preventDefault();
          sq.classList.remove("drop-target");
          opts.onDrop(r, c, e);
        });
      }
      grid.append(sq);
    }
  }
  holder.append(grid);
  return grid;
}

// The tiles of a MOVE (detail) as overlay entries.
export function moveOverlay(move, cls) {
  if (!move || !Array.isArray(move.tiles)) return [];
  return move.tiles.map((t) => ({
    row: t.row, col: t.col, letter: t.letter, blank: !!t.blank,
    points: t.blank ? 0 : (t.points ?? pointsOf(t.letter)), cls,
  }));
}

export function moveSquares(move) {
  if (!move) return [];
  if (Array.isArray(move.squares)) return move.squares;
  if (Array.isArray(move.tiles)) return move.tiles.map((t) => [t.row, t.col]);
  return [];
}

export function marksOf(squares, cls, marks = new Map()) {
  for (const [r, c] of squares || []) marks.set(key(r, c), cls);
  return marks;
}

export function renderRack(holder, tiles, attrsFor) {
  clear(holder);
  tiles.forEach((t, i) => holder.append(tileNode(t, "rack-tile",
    attrsFor ? attrsFor(t, i) : { "data-testid": "rack-tile", "data-letter": t.letter })));
}
