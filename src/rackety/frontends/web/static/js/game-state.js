// A game being played: the GAME the server last sent, and what the person is
// doing on this page (tiles placed but not yet played, the cursor, a drag).
import { $, showError } from "./dom.js";
import { pickLetter } from "./picker.js";
import { typeables } from "./tiles.js";

export const game = {
  data: null, // GAME
  order: [], // the rack as shown: indices into data.rack
  placed: [], // tentative tiles: {row, col, idx, letter, blank, points}
  selected: null, // the rack index picked up by a click
  exchange: null, // Set of rack indices while choosing tiles to exchange
  cursor: null, // {row, col, dir} for typing
  hints: null, // MOVEs from the hint endpoint
  preview: null, // a hint hovered in the list
  busy: false,
  justLoaded: false, // set by the new-game form and the import, read by openGame
  pending: "", // typed letters that start a tile of several letters ("N" of NY, "[C")
  animKey: null, // the last play already animated
  animate: new Set(),
  animTimer: null,
  drag: null, // {src: "rack", idx} or {src: "board", row, col}
};

export function isRecord() {
  return game.data && game.data.status === "record";
}
export function canAct() {
  const g = game.data;
  return !!g && g.status === "playing" && !game.busy &&
    (g.human === null || g.human === undefined || g.turn === g.human);
}

export function alphabetLetters() {
  const g = game.data;
  const source = (g && g.alphabet) || null;
  if (Array.isArray(source) && source.length) {
    return source.map((x) => (typeof x === "string" ? x : x.letter))
      .filter((l) => l && l !== "?");
  }
  return "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");
}

// Keep the player's arrangement of the rack across turns: tiles still on
// the rack keep their places, new tiles go to the right.
export function rackOrder(oldGame, oldOrder, newRack) {
  const fresh = [...newRack.keys()];
  if (!oldGame || !oldGame.rack) return fresh;
  const used = new Set();
  const order = [];
  for (const i of oldOrder) {
    const old = oldGame.rack[i];
    if (!old) continue;
    const j = newRack.findIndex((t, k) => !used.has(k) && t.letter === old.letter &&
                                          !!t.blank === !!old.blank);
    if (j >= 0) {
      used.add(j);
      order.push(j);
    }
  }
  for (const k of fresh) if (!used.has(k)) order.push(k);
  return order;
}

export function placedAt(r, c) {
  return game.placed.find((p) => p.row === r && p.col === c);
}
export function occupied(r, c) {
  const b = game.data.board;
  return !!(b.squares[r] && b.squares[r][c]) || !!placedAt(r, c);
}
export function isPlaced(idx) {
  return game.placed.some((p) => p.idx === idx);
}

export async function placeTile(idx, r, c, letter = null) {
  const g = game.data;
  if (!canAct() || occupied(r, c) || isPlaced(idx)) return false;
  const tile = g.rack[idx];
  if (!tile) return false;
  let chosen = tile.letter;
  if (tile.blank) {
    chosen = letter || await pickLetter(alphabetLetters(), (g && g.keys) || {});
    if (!chosen) return false;
    if (occupied(r, c) || isPlaced(idx)) return false;
  }
  game.placed.push({ row: r, col: c, idx, letter: chosen, blank: !!tile.blank,
                     points: tile.blank ? 0 : tile.points });
  game.selected = null;
  showError($("play-error"), "");
  return true;
}

export function takeBack(r, c) {
  const i = game.placed.findIndex((p) => p.row === r && p.col === c);
  if (i >= 0) game.placed.splice(i, 1);
}

export function recall() {
  game.placed = [];
  game.selected = null;
  game.preview = null;
}

export function nextEmpty(r, c, dir, step = 1) {
  const n = game.data.board.size;
  let row = r;
  let col = c;
  do {
    if (dir === "down") row += step;
    else col += step;
  } while (row >= 0 && col >= 0 && row < n && col < n && occupied(row, col));
  if (row < 0 || col < 0 || row >= n || col >= n) return null;
  return { row, col };
}

export function gameTable() {
  return typeables(alphabetLetters(), (game.data && game.data.keys) || {});
}

