// The Analyse page's position: its moves by equity (POST /api/analyze), a
// simulation (POST /api/simulate), and its endgame or pre-endgame. The CGP in
// the box (or the editor's) is read by the server (POST /api/position), in the
// lexicon chosen when it names no alphabet.
import { api, readPosition } from "./api.js";
import { $, showError } from "./dom.js";
import { editorCgp, editorUntouched, loadPosition } from "./editor.js";
import { startSearch } from "./endgame.js";
import { lexiconChoice } from "./options.js";
import { EXAMPLE_CGP, pos } from "./position-state.js";
import { renderPosition } from "./position-view.js";

// The CGP to analyse, as the server writes it: the one in the box (the board
// editor's once the server has written it: none while it refuses the
// editor's position, its error shown), else the editor's, else with
// EXAMPLE the example the form shows (put in the box); null when there is
// none. A CGP the server refuses throws its error.
async function chosenCgp({ example = false } = {}) {
  if ((pos.synced || pos.refused) && (await editorCgp()) === null) return null;
  let text = $("cgp-input").value.trim();
  if (!text && pos.grid && !editorUntouched()) {
    text = await editorCgp();
    if (text === null) return null;
  } else if (!text && example && editorUntouched()) {
    text = EXAMPLE_CGP;
  }
  if (!text) {
    showError($("analyse-error"), "Paste a position in CGP first, or edit the board.");
    return null;
  }
  $("cgp-input").value = text;
  return (await readPosition(text, lexiconChoice($("analyse-lexicon")))).cgp;
}

export async function analysePosition() {
  showError($("analyse-error"), "");
  const button = $("btn-analyze");
  button.disabled = true;
  try {
    const cgp = await chosenCgp({ example: true });
    if (!cgp) return;
    const top = Math.max(1, Math.min(100, parseInt($("analyse-top").value, 10) || 15));
    const data = await api("/api/analyze", { method: "POST", body: {
      cgp, lexicon: lexiconChoice($("analyse-lexicon")), top, detail: true } });
    if (data.board) loadPosition({ cgp, ...data });
    pos.moves = data.moves || [];
    pos.count = data.count;
    pos.leaves = data.leaves || null;
    pos.adjustment = data.adjustment || null;
    pos.verdict = data.verdict || null;  // the judge's word (endgame, pre-endgame)
    pos.pinned = pos.moves[0] || null;
    pos.hover = null;
    pos.sim = null;
    renderPosition();
  } catch (err) {
    showError($("analyse-error"), err.message);
  } finally {
    button.disabled = false;
  }
}

async function simulate() {
  showError($("analyse-error"), "");
  const seconds = Math.max(0.1, Math.min(60, Number($("sim-seconds").value) || 2));
  const candidates = Math.max(2, Math.min(30, parseInt($("sim-candidates").value, 10) || 8));
  const button = $("btn-simulate");
  button.disabled = true;
  const started = Date.now();
  const tick = setInterval(() => {
    button.textContent = `Simulating… ${((Date.now() - started) / 1000).toFixed(0)} s`;
  }, 250);
  try {
    const cgp = await chosenCgp();
    if (!cgp) return;
    const data = await api("/api/simulate", { method: "POST", body: {
      cgp, lexicon: lexiconChoice($("analyse-lexicon")), candidates, seconds, plies: 2 } });
    pos.sim = data;
    if (data.moves && data.moves.length) pos.pinned = data.moves[0];
    renderPosition();
    $("sim-card").scrollIntoView({ block: "nearest", behavior: "smooth" });
  } catch (err) {
    showError($("analyse-error"), err.message);
  } finally {
    clearInterval(tick);
    button.disabled = false;
    button.textContent = "Simulate";
  }
}

// The position's endgame or pre-endgame (KIND), on the Endgame page.
async function positionSearch(kind) {
  showError($("analyse-error"), "");
  try {
    const cgp = await chosenCgp();
    if (!cgp) return;
    startSearch(kind, { cgp, lexicon: lexiconChoice($("analyse-lexicon")) },
      $("analyse-error"));
  } catch (err) {
    showError($("analyse-error"), err.message);
  }
}

$("btn-analyze").addEventListener("click", analysePosition);
$("btn-simulate").addEventListener("click", simulate);
$("btn-pos-endgame").addEventListener("click", () => positionSearch("endgame"));
$("btn-pos-preendgame").addEventListener("click", () => positionSearch("preendgame"));
$("cgp-input").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey) {
    e.preventDefault();
    analysePosition();
  }
});
