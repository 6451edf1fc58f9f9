// The Analyse page's board editor: tiles typed onto the board, the racks and
// the scores in their fields. The server writes the position as CGP (POST
// /api/position/edit) and says at once what is wrong with it; the page never
// reads or writes CGP itself.
import { editPosition } from "./api.js";
import { $, showError } from "./dom.js";
import { lexiconChoice } from "./options.js";
import { pos } from "./position-state.js";
import { renderPosition } from "./position-view.js";
import { learnBoard, learnTiles, rackText, rackTiles } from "./tiles.js";

// whether the board editor still holds the empty board it started with
export function editorUntouched() {
  const empty = !pos.grid || pos.grid.every((row) => row.every((t) => !t));
  return empty && !$("edit-rack").value.trim() && !$("edit-rack2").value.trim();
}

// The editor takes a position from the server (its POSITION: cgp, board, racks,
// scores): its board, racks and scores to edit, its CGP the base of the edits.
export function loadPosition(p) {
  pos.board = p.board;
  pos.base = p.cgp || null;
  learnBoard(p.board);
  pos.racks = (p.racks || []).map(rackTiles);
  pos.racks.forEach(learnTiles);
  pos.grid = p.board.squares.map((row) => row.map((t) => (t ? { ...t } : null)));
  const asText = (tiles) => tiles.map((t) => rackText(t.letter)).join("");
  $("edit-rack").value = asText(pos.racks[0] || []);
  $("edit-rack2").value = asText(pos.racks[1] || []);
  $("edit-score1").value = (p.scores && p.scores[0]) || 0;
  $("edit-score2").value = (p.scores && p.scores[1]) || 0;
}

// The edit the server is asked to make: the position the editor started from,
// read in the lexicon chosen, with the editor's tiles, racks and scores.
function editorEdit() {
  const tiles = [];
  pos.grid.forEach((row, r) => row.forEach((t, c) => {
    if (t) tiles.push({ row: r, col: c, letter: t.letter, blank: !!t.blank });
  }));
  const rack = (id) => $(id).value.replace(/\s+/g, "").toUpperCase();
  const score = (id) => parseInt($(id).value, 10) || 0;
  return { cgp: pos.base, lexicon: lexiconChoice($("analyse-lexicon")), tiles,
           racks: [rack("edit-rack"), rack("edit-rack2")],
           scores: [score("edit-score1"), score("edit-score2")] };
}

// After each change: the board redrawn at once, and the server asked (shortly
// after the last of a run of keys) for the position's CGP, which goes into the
// CGP box, or for what is wrong with it.
function editorChanged() {
  pos.moves = [];
  pos.pinned = null;
  pos.hover = null;
  pos.sim = null;
  pos.racks = [rackTiles($("edit-rack").value.toUpperCase())];
  renderPosition();
  askCgp(150);
}

// Ask the server for the editor's CGP in DELAY ms (a request asked before and
// not yet sent is dropped): a promise of it.
function askCgp(delay) {
  clearTimeout(pos.refresh);
  const asked = ++pos.asked;
  pos.synced = new Promise((resolve) => {
    pos.refresh = setTimeout(() => resolve(writeCgp(asked)), delay);
  });
  return pos.synced;
}

// The editor's CGP as the server writes it, or null (the error shown); a
// later edit's when one came meanwhile.
async function writeCgp(asked) {
  let p = null;
  let error = null;
  try {
    p = await editPosition(editorEdit());
  } catch (err) {
    error = err;
  }
  if (asked !== pos.asked) return pos.synced;
  pos.synced = null;
  pos.refused = !!error;
  if (error) {
    showError($("analyse-error"), error.message);
    return null;
  }
  $("cgp-input").value = p.cgp;
  learnBoard(p.board);
  (p.racks || []).forEach(learnTiles);
  pos.racks = p.racks || [];  // the racks as the server read them
  showError($("analyse-error"), "");
  renderPosition();
  return p.cgp;
}

// The editor's CGP once the server has written it: null when it refused it
// (asked again if it was refused before: the lexicon may have changed).
export function editorCgp() {
  return pos.synced || askCgp(0);
}

// A CGP typed or pasted in the box is the position now, not the editor's.
$("cgp-input").addEventListener("input", () => {
  pos.refused = false;
});

async function setEditing(on) {
  pos.edit = on;
  $("edit-toggle").checked = on;
  if (on && !pos.board) {
    try {  // an empty board in the lexicon's alphabet
      loadPosition(await editPosition({ lexicon: lexiconChoice($("analyse-lexicon")) }));
    } catch (err) {
      showError($("analyse-error"), err.message);
    }
  }
  if (on && !pos.cursor && pos.board) {
    pos.cursor = { row: pos.board.start[0], col: pos.board.start[1], dir: "across" };
  }
  renderPosition();
}

export function editorKey(e) {
  if (!pos.edit || !pos.cursor || !pos.grid) return;
  const n = pos.grid.length;
  const { row, col, dir } = pos.cursor;
  const advance = (step) => {
    const r = row + (dir === "down" ? step : 0);
    const c = col + (dir === "across" ? step : 0);
    if (r >= 0 && c >= 0 && r < n && c < n) pos.cursor = { row: r, col: c, dir };
  };
  const arrows = { ArrowRight: ["across", 0, 1], ArrowLeft: ["across", 0, -1],
                   ArrowDown: ["down", 1, 0], ArrowUp: ["down", -1, 0] };
  if (arrows[e.key]) {
    e.preventDefault();
    const [d, dr, dc] = arrows[e.key];
    const r = row + dr;
    const c = col + dc;
    pos.cursor = r >= 0 && c >= 0 && r < n && c < n ? { row: r, col: c, dir: d }
                                                   : { row, col, dir: d };
    renderPosition();
    return;
  }
  if (e.key === "Backspace") {
    e.preventDefault();
    if (!pos.grid[row][col]) {
      advance(-1);
    }
    pos.grid[pos.cursor.row][pos.cursor.col] = null;
    editorChanged();
    return;
  }
  if (e.key === " " || e.key === "Delete") {
    e.preventDefault();
    pos.grid[row][col] = null;
    if (e.key === " ") advance(1);
    editorChanged();
    return;
  }
  if (e.key === "[") {
    e.preventDefault();
    pos.pending = "[";
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (pos.pending) {
    e.preventDefault();
    if (e.key === "]") {
      const label = pos.pending.slice(1).toUpperCase();
      pos.pending = "";
      if (label) {
        pos.grid[row][col] = { letter: label, blank: e.shiftKey };
        advance(1);
        editorChanged();
      }
    } else if (e.key.length === 1) {
      pos.pending += e.key;
    }
    return;
  }
  if (!/^\p{L}$/u.test(e.key)) return;
  e.preventDefault();
  pos.grid[row][col] = { letter: e.key.toUpperCase(), blank: e.shiftKey };
  advance(1);
  editorChanged();
}

$("analyse-lexicon").addEventListener("change", () => {
  if (pos.edit && pos.grid) editorChanged();  // the editor's CGP in the lexicon's alphabet
});
$("edit-toggle").addEventListener("change", (e) => setEditing(e.target.checked));
$("btn-edit-clear").addEventListener("click", () => {
  if (!pos.grid) return;
  pos.grid = pos.grid.map((row) => row.map(() => null));
  editorChanged();
});
for (const id of ["edit-rack", "edit-rack2", "edit-score1", "edit-score2"]) {
  $(id).addEventListener("input", () => { if (pos.grid) editorChanged(); });
}
