// The game at the keyboard.
import { toast } from "./dom.js";
import { playPlaced } from "./game.js";
import { shuffle } from "./game-input.js";
import {
  alphabetLetters, canAct, game, gameTable, isPlaced, isRecord, nextEmpty, occupied, placeTile,
  recall,
} from "./game-state.js";
import { renderGame } from "./game-view.js";
import { keyText, typedTile } from "./tiles.js";

// Typing: letters onto the cursor square, Backspace takes the last one back,
// arrows move the cursor and set the direction, Enter plays, Escape recalls.
// A tile of several letters: "[" its label "]", or as the game's KEYS say
// (Catalan N then Y for NY, Spanish 1 for CH): letters that start one wait
// in game.pending until the next key says which tile it is.
export async function gameKey(e) {
  if (!game.data || isRecord()) return;
  if (game.pending && canAct() && game.cursor && !game.exchange &&
      !(e.ctrlKey || e.metaKey || e.altKey) && await pendingKey(e)) {
    renderGame();
    return;
  }
  if (e.key === "Enter") {
    e.preventDefault();
    game.pending = "";
    playPlaced();
    return;
  }
  if (e.key === "Escape") {
    game.pending = "";
    recall();
    game.exchange = null;
    game.cursor = null;
    renderGame();
    return;
  }
  if (!canAct() || game.exchange) return;
  const arrows = { ArrowRight: ["across", 1], ArrowLeft: ["across", -1],
                   ArrowDown: ["down", 1], ArrowUp: ["down", -1] };
  if (arrows[e.key] && game.cursor) {
    e.preventDefault();
    const [dir, step] = arrows[e.key];
    const n = game.data.board.size;
    const row = game.cursor.row + (dir === "down" ? step : 0);
    const col = game.cursor.col + (dir === "across" ? step : 0);
    if (game.cursor.dir !== dir) {
      game.cursor.dir = dir;
    } else if (row >= 0 && col >= 0 && row < n && col < n) {
      game.cursor = { row, col, dir };
    }
    renderGame();
    return;
  }
  if (e.key === "Backspace") {
    e.preventDefault();
    const last = game.placed.pop();
    if (last) game.cursor = { row: last.row, col: last.col,
                              dir: (game.cursor && game.cursor.dir) || "across" };
    renderGame();
    return;
  }
  if (e.key === " ") {
    e.preventDefault();
    shuffle();
    return;
  }
  if (!game.cursor || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "[") {
    e.preventDefault();
    game.pending = "[";
    renderGame();
    return;
  }
  const k = keyText(e.key, alphabetLetters());
  if (!/^[\p{L}\p{N}·]$/u.test(k)) return;
  e.preventDefault();
  await typeText(k);
  renderGame();
}

// A key while letters are pending: true when it was used up here. Enter and
// the arrows first put down the tile the pending letters are; Backspace takes
// one back; "]" ends a bracketed label.
async function pendingKey(e) {
  const p = game.pending;
  if (e.key === "Backspace") {
    e.preventDefault();
    game.pending = p.slice(0, -1);
    return true;
  }
  if (p.startsWith("[")) {
    if (e.key === "]") {
      e.preventDefault();
      game.pending = "";
      const label = p.slice(1).toUpperCase();
      if (alphabetLetters().includes(label)) await typeTile(label);
      else toast(`[${label}] is not a tile of this game.`);
      return true;
    }
    if (e.key.length === 1 && e.key !== "[") {
      e.preventDefault();
      game.pending = p + keyText(e.key, alphabetLetters());
      return true;
    }
    return false;
  }
  if (["Enter", "Tab", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key)) {
    game.pending = "";  // the pending letters are a tile first; then the key does its part
    const found = typedTile(p, gameTable());
    if (found && found.label) await typeTile(found.label);
  }
  return false;
}

// A key typed onto the board: a tile, or the start of one (pending).
async function typeText(k) {
  const table = gameTable();
  let text = game.pending + k;
  let found = typedTile(text, table);
  if (!found && game.pending) {  // the pending letters are a tile of their own
    const before = typedTile(game.pending, table);
    game.pending = "";
    if (before && before.label && !(await typeTile(before.label))) return;
    text = k;
    found = typedTile(text, table);
  }
  if (!found) {
    game.pending = "";
    toast(`${k.toUpperCase()} is not a tile of this game.`);
    return;
  }
  if (found.prefix) {
    game.pending = text.toUpperCase();
    return;
  }
  game.pending = "";
  await typeTile(found.label);
}

// Put the tile LABEL from the rack on the cursor square (a blank standing for
// it when the rack has none), and move the cursor on.
async function typeTile(label) {
  if (!game.cursor) return false;
  const rack = game.data.rack;
  const free = game.order.filter((i) => !isPlaced(i));
  let idx = free.find((i) => !rack[i].blank && rack[i].letter === label);
  let blankLetter = null;
  if (idx === undefined) {
    idx = free.find((i) => rack[i].blank);
    blankLetter = label;
  }
  if (idx === undefined) {
    toast(`No ${label} on your rack.`);
    return false;
  }
  const { row, col, dir } = game.cursor;
  if (occupied(row, col)) return false;
  if (await placeTile(idx, row, col, blankLetter)) {
    const next = nextEmpty(row, col, dir);
    game.cursor = next ? { ...next, dir } : null;
    return true;
  }
  return false;
}
