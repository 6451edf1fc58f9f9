// The game page: a game from the server (GET /api/games/ID), the person's
// moves sent to it, hints, and the page's buttons.
import { api } from "./api.js";
import { $, showError, toast } from "./dom.js";
import { key } from "./board.js";
import {
  dragStartBoard, dragStartRack, dropOnRack, dropOnSquare, onGameSquare, onRackTile, shuffle,
} from "./game-input.js";
import { clockReceived } from "./game-clock.js";
import { canAct, game, rackOrder, recall } from "./game-state.js";
import { bindGameView, renderControls, renderGame } from "./game-view.js";
import { analyseGcg } from "./record.js";
import { selectTab } from "./tabs.js";
import { learnBoard, learnTiles, rackTiles, rackText } from "./tiles.js";
import { currentRoute, showView } from "./views.js";

export function setGame(g, { fresh = false } = {}) {
  const old = game.data;
  const same = old && old.id === g.id && !fresh;
  game.order = rackOrder(same ? old : null, same ? game.order : [], g.rack || []);
  game.data = g;
  clockReceived(g);
  game.placed = [];
  game.selected = null;
  game.exchange = null;
  game.hints = null;
  game.preview = null;
  learnBoard(g.board);
  learnTiles(g.rack);
  // Animate the latest play once, when it is new to this page.
  const lastKey = g.last ? `${g.id}:${(g.events || []).length}:${JSON.stringify(g.last)}`
                         : null;
  game.animate = new Set();
  if (lastKey && game.animKey !== lastKey) {
    if (same) {
      for (const [r, c] of g.last.squares || []) game.animate.add(key(r, c));
    }
    game.animKey = lastKey;
  }
  if (game.cursor && g.board && g.board.squares[game.cursor.row] &&
      g.board.squares[game.cursor.row][game.cursor.col]) {
    game.cursor = null;
  }
  renderGame();
}

export async function openGame(id) {
  showView("game");
  showError($("play-error"), "");
  if (game.data && String(game.data.id) === String(id)) {
    renderGame();
    if (game.justLoaded) {
      // the game was just created or imported: no need to ask again
      game.justLoaded = false;
      return;
    }
  } else {
    game.data = null;
    game.cursor = null;
    renderGame();
  }
  document.body.dataset.busy = "1";
  try {
    const g = await api(`/api/games/${encodeURIComponent(id)}`);
    if (currentRoute().arg !== String(id)) return;
    setGame(g, { fresh: !(game.data && game.data.id === g.id) });
  } catch (err) {
    showError($("play-error"), err.status === 404 ? `There is no game ${id}.` : err.message);
  } finally {
    document.body.dataset.busy = "0";
  }
}

// ---------------------------------------------------------------- actions
async function act(path, body, { method = "POST" } = {}) {
  const g = game.data;
  if (!g) return;
  game.busy = true;
  document.body.dataset.busy = "1";
  renderControls();
  const thinking = setTimeout(() => { $("thinking").hidden = false; }, 150);
  showError($("play-error"), "");
  try {
    const next = await api(`/api/games/${g.id}${path}`, { method, body });
    setGame(next);
  } catch (err) {
    showError($("play-error"), err.message);
  } finally {
    clearTimeout(thinking);
    $("thinking").hidden = true;
    game.busy = false;
    renderGame();
    document.body.dataset.busy = "0";
  }
}

export async function playPlaced() {
  if (!canAct()) return;
  if (!game.placed.length) {
    showError($("play-error"),
      "Put some tiles on the board first: click a rack tile, then a square (or drag it).");
    return;
  }
  const tiles = game.placed.map((p) => ({ row: p.row, col: p.col, letter: p.letter,
                                         blank: p.blank }));
  await act("/play", { tiles });
}

async function confirmExchange() {
  if (!game.exchange || !game.exchange.size) {
    showError($("play-error"), "Click the rack tiles you want to exchange first.");
    return;
  }
  const tiles = [...game.exchange].map((i) => rackText(game.data.rack[i].letter)).join("");
  await act("/exchange", { tiles });
}

async function showHints() {
  const g = game.data;
  if (!canAct()) return;
  $("btn-hint").disabled = true;
  document.body.dataset.busy = "1";
  try {
    const data = await api(`/api/games/${g.id}/hint?top=5`);
    game.hints = data.moves || [];
    const verdict = data.verdict || {};
    (data.moves || []).forEach((m, i) => {
      if (verdict.moves && verdict.moves[i]) m.value = verdict.moves[i].value;
    });
    $("hint-leaves").textContent = (verdict.valued_by && verdict.valued_by !== "static"
      ? ` · ${verdict.valued_by}: value = spread to the end of the game`
      : (data.leaves ? ` · equity with ${data.leaves}` : "")) +
      (data.adjustment ? ` · ${data.adjustment}` : "");
    showError($("play-error"), "");
  } catch (err) {
    showError($("play-error"), err.message);
  } finally {
    renderGame();
    document.body.dataset.busy = "0";
  }
}

// Put a MOVE (a hint) on the board as a tentative placement, or select the
// tiles of an exchange.
function applyMove(move) {
  const g = game.data;
  if (!canAct() || !move) return;
  recall();
  game.exchange = null;
  game.cursor = null;
  if (move.kind === "exchange") {
    // The tiles to exchange are the rack minus the leave.
    const leave = rackTiles(move.leave || "").map((t) => t.letter);
    const chosen = new Set();
    g.rack.forEach((t, i) => {
      const j = leave.indexOf(t.letter);
      if (j >= 0) leave.splice(j, 1);
      else chosen.add(i);
    });
    game.exchange = chosen;
  } else if (move.kind === "pass") {
    toast("The hint is to pass.");
  } else {
    const free = new Set(g.rack.keys());
    for (const t of move.tiles || []) {
      const fits = (i) => (t.blank ? g.rack[i].blank
                                   : !g.rack[i].blank && g.rack[i].letter === t.letter);
      const idx = [...free].find(fits);
      if (idx === undefined) continue;
      free.delete(idx);
      game.placed.push({ row: t.row, col: t.col, idx, letter: t.letter, blank: !!t.blank,
                         points: t.blank ? 0 : g.rack[idx].points });
    }
  }
  renderGame();
}

$("btn-play").addEventListener("click", playPlaced);
$("btn-recall").addEventListener("click", () => { recall(); renderGame(); });
$("btn-shuffle").addEventListener("click", shuffle);
$("btn-pass").addEventListener("click", () => {
  if (canAct()) act("/pass");
});
$("btn-challenge").addEventListener("click", () => {
  if (canAct()) act("/challenge");
});
$("btn-undo").addEventListener("click", () => {
  if (game.data && !game.busy) act("/undo");
});
$("btn-hint").addEventListener("click", showHints);
$("btn-exchange").addEventListener("click", () => {
  if (!canAct()) return;
  recall();
  game.cursor = null;
  game.exchange = new Set();
  renderGame();
});
$("btn-exchange-confirm").addEventListener("click", confirmExchange);
$("btn-exchange-cancel").addEventListener("click", () => {
  game.exchange = null;
  renderGame();
});
$("btn-record-analyse").addEventListener("click", async () => {
  const g = game.data;
  if (!g) return;
  try {
    const response = await fetch(`/api/games/${g.id}/gcg`);
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const text = await response.text();
    $("gcg-input").value = text;
    location.hash = "#analyse";
    selectTab("gcg");
    analyseGcg();
  } catch (err) {
    showError($("play-error"), `Could not fetch the record: ${err.message}`);
  }
});

// what the board, the rack and the hints do when clicked or dragged on
bindGameView({
  onSquare: onGameSquare, onDrop: dropOnSquare, dragStartBoard, onRackTile, dragStartRack,
  dropOnRack, applyMove,
});
