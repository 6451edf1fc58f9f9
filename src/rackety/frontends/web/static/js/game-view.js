// The game page drawn from the game's state: board, rack, buttons, scores,
// the unseen tiles, the moves so far, hints and the result.
import { key, marksOf, moveOverlay, moveSquares, renderBoard, tileNode } from "./board.js";
import { $, clear, h } from "./dom.js";
import { fmt, ratingChange, signed } from "./format.js";
import { clockLeft, clockText, drawClocks } from "./game-clock.js";
import { canAct, game, gameTable, isPlaced, isRecord } from "./game-state.js";
import { rackText, rackTiles, typedTile } from "./tiles.js";

// What clicks and drags on the board, the rack and the hints do (game.js
// binds them: they redraw through this module).
const handlers = {};
export function bindGameView(bound) {
  Object.assign(handlers, bound);
}

export function renderGame() {
  const g = game.data;
  const record = isRecord();
  $("controls").hidden = !g || record;
  $("rack").parentElement.hidden = !g || record;
  $("record-card").hidden = !record;
  if (!g) {
    clear($("game-board"));
    clear($("rack"));
    clear($("scoreboard"));
    clear($("events"));
    $("game-title").textContent = "";
    $("bag-count").textContent = "";
    $("result").hidden = true;
    $("unseen-card").hidden = true;
    $("hint-card").hidden = true;
    $("messages").hidden = true;
    $("exchange-bar").hidden = true;
    $("status-line").textContent = "Loading the game…";
    return;
  }
  renderGameBoard();
  renderGameRack();
  renderControls();
  renderScores();
  renderUnseen();
  renderEvents();
  renderHints();
  renderResult();
  renderMessages();
}

function renderGameBoard() {
  const g = game.data;
  const record = isRecord();
  const overlay = game.placed.map((p) => ({
    row: p.row, col: p.col, letter: p.letter, blank: p.blank, points: p.points,
    cls: "tentative",
    attrs: { draggable: "true", "data-testid": "placed-tile", title: "Click to take it back" },
  }));
  const marks = new Map();
  if (g.last && g.last.squares) marksOf(g.last.squares, "last", marks);
  if (game.preview && !game.placed.length) {
    const taken = new Set(overlay.map((t) => key(t.row, t.col)));
    for (const t of moveOverlay(game.preview, "preview")) {
      if (!taken.has(key(t.row, t.col))) overlay.push(t);
    }
    marksOf(moveSquares(game.preview), "marked", marks);
  }
  for (const p of game.placed) marks.set(key(p.row, p.col), "pending");
  const grid = renderBoard($("game-board"), g.board, {
    overlay, marks, cursor: canAct() ? game.cursor : null, animate: game.animate,
    onSquare: handlers.onSquare, onDrop: record ? null : handlers.onDrop,
  });
  if (game.animate.size && !game.animTimer) {
    // the arrival animation plays for the first second after a move only
    game.animTimer = setTimeout(() => {
      game.animate = new Set();
      game.animTimer = null;
    }, 1200);
  }
  if (!grid) return;
  grid.querySelectorAll(".tile.tentative").forEach((node) => {
    const sq = node.parentElement;
    const r = Number(sq.dataset.row);
    const c = Number(sq.dataset.col);
    node.addEventListener("dragstart", (e) => handlers.dragStartBoard(e, r, c));
  });
  grid.classList.toggle("selecting", game.selected !== null);
}

function renderGameRack() {
  const g = game.data;
  const box = clear($("rack"));
  for (const idx of game.order) {
    const t = g.rack[idx];
    if (!t || isPlaced(idx)) continue;
    const cls = ["rack-tile"];
    if (game.selected === idx) cls.push("selected");
    if (game.exchange && game.exchange.has(idx)) cls.push("to-exchange");
    const node = tileNode(t, cls.join(" "), {
      "data-testid": "rack-tile", "data-index": idx, "data-letter": t.letter,
      draggable: canAct() && !game.exchange ? "true" : "false",
      title: t.blank ? "A blank: you choose its letter when you place it" : null,
    });
    node.addEventListener("click", () => handlers.onRackTile(idx));
    node.addEventListener("dragstart", (e) => handlers.dragStartRack(e, idx));
    node.addEventListener("dragover", (e) => {
      if (game.drag) {
        e.preventDefault();
        node.classList.add("drop-before");
      }
    });
    node.addEventListener("dragleave", () => node.classList.remove("drop-before"));
    node.addEventListener("drop", (e) => {
      e.preventDefault();
      e.stopPropagation();
      handlers.dropOnRack(idx);
    });
    box.append(node);
  }
  box.classList.toggle("exchanging", !!game.exchange);
}

export function renderControls() {
  const g = game.data;
  if (!g) return;
  const can = canAct();
  const ex = !!game.exchange;
  $("btn-play").disabled = !can || ex;
  $("btn-recall").disabled = !can || ex || !game.placed.length;
  $("btn-exchange").disabled = !can || ex || g.can_exchange === false;
  $("btn-pass").disabled = !can || ex;
  $("btn-challenge").disabled = !can || ex || !g.can_challenge;
  $("btn-hint").disabled = !can || ex;
  $("btn-undo").disabled = game.busy || g.status !== "playing" ||
    !(g.events || []).some((e) => e.seat === g.human);
  $("btn-shuffle").disabled = game.busy;
  $("exchange-bar").hidden = !ex;
  $("controls").hidden = ex || isRecord();
  $("btn-exchange-confirm").disabled = !ex || !game.exchange.size || game.busy;
  const link = $("btn-gcg");
  link.href = `/api/games/${g.id}/gcg`;
  link.setAttribute("download", `game-${g.id}.gcg`);
  $("btn-report").href = `/api/games/${g.id}/report`;
  let status;
  if (g.status === "record") status = "An imported game record.";
  else if (g.status === "over") status = "The game is over.";
  else if (game.busy) status = "Waiting for the computer…";
  else if (ex) status = "Choose the tiles to exchange.";
  else if (game.selected !== null) status = "Now click a square to put the tile there.";
  else if (game.pending) {
    const found = game.pending.startsWith("[") ? null : typedTile(game.pending, gameTable());
    status = found && found.prefix
      ? `Typed ${game.pending}: type on for ${found.prefix.join(", ")}` +
        `${found.label ? `, or another letter for ${found.label}` : ""}.`
      : `Typed ${game.pending}: the tile's label, then ].`;
  } else if (game.cursor) status = "Type letters to place tiles; Enter plays.";
  else status = `Your move${g.bag !== undefined ? `: ${g.bag} tiles in the bag` : ""}.`;
  $("status-line").textContent = status;
}

function renderScores() {
  const g = game.data;
  $("game-title").textContent = `Game ${g.id} · ${g.lexicon || ""}`;
  $("bag-count").textContent = `${g.bag ?? "?"} in the bag`;
  $("bag-count").dataset.bag = g.bag ?? "";
  const table = clear($("scoreboard"));
  for (const p of g.players || []) {
    const toMove = g.status === "playing" && g.turn === p.seat;
    table.append(h("tr", {
      class: `${toMove ? "to-move" : ""} ${p.seat === g.human ? "human" : ""}`,
      "data-testid": "score-row", "data-seat": p.seat,
    },
    h("td", { class: "turn-dot" }, toMove ? "●" : ""),
    h("td", { class: "name" }, p.name,
      p.kind === "computer" && p.level ? h("span", { class: "level" }, p.level) : null),
    h("td", { class: "score", "data-testid": `score-${p.seat}` }, p.score),
    g.clock ? h("td", { class: "clock", "data-testid": `clock-${p.seat}`,
                        "data-clock-seat": p.seat, title: "Time left on the game clock" },
                clockText(clockLeft(g, p.seat))) : null));
  }
  drawClocks();
}

// The tiles the person has not seen, by letter (the game's "unseen": their own
// rack known, never a computer's), with their count and the bag/rack split.
function renderUnseen() {
  const u = game.data.unseen;
  $("unseen-card").hidden = !u || !u.count;
  if (!u) return;
  $("unseen-count").textContent = `(${u.count})`;
  $("unseen-card").title = u.text;
  const box = clear($("unseen-tiles"));
  for (const [letter, count] of Object.entries(u.tiles)) {
    box.append(h("span", { class: "unseen-group", "data-letter": letter,
                           title: `${count} × ${letter}` }, letter.repeat(count)), " ");
  }
}

const EVENT_TEXT = {
  exchange: (e) => e.move || "exchange",
  pass: () => "pass",
  withdrawn: (e) => `${e.move || ""} (withdrawn)`,
  challenge_bonus: () => "challenge bonus",
  lost_turn: () => "lost challenge",
  end_points: () => "out: the others' tiles",
  end_penalty: (e) => (e.rack ? `${e.rack} left on the rack` : "tiles left on the rack"),
};

function renderEvents() {
  const g = game.data;
  const table = clear($("events"));
  const events = g.events || [];
  const over = g.status !== "playing";
  // why a computer chose its move: on hover for each, written out under the latest
  const lastWhy = events.map((e) => Boolean(e.why)).lastIndexOf(true);
  events.forEach((e, i) => {
    const text = EVENT_TEXT[e.kind] ? EVENT_TEXT[e.kind](e) : (e.move || e.kind);
    const showRack = over || e.seat === g.human;
    const row = {
      class: `ev-${e.kind} ${i === events.length - 1 ? "latest" : ""}`,
      "data-testid": "event-row", "data-kind": e.kind,
    };
    if (e.why) row.title = e.why;
    table.append(h("tr", row,
      h("td", { class: "who" }, e.player),
      h("td", { class: "rack-text" }, showRack ? (e.rack || "") : ""),
      h("td", { class: "mv" }, text),
      h("td", { class: "num" }, e.score === null || e.score === undefined ? "" : signed(e.score)),
      h("td", { class: "num total" }, e.total ?? "")));
    if (i === lastWhy) {
      table.append(h("tr", { class: "why", "data-testid": "event-why" },
        h("td", { colspan: 5 }, e.why)));
    }
  });
  const scroller = table.parentElement;
  scroller.scrollTop = scroller.scrollHeight;
}

function renderHints() {
  const card = $("hint-card");
  const table = clear($("hint-table"));
  if (!game.hints || !canAct()) {
    card.hidden = true;
    return;
  }
  card.hidden = false;
  table.append(h("tr", {}, h("th", {}, "Move"), h("th", {}, "Score"), h("th", {}, "Leave"),
                 h("th", {}, "Equity")));
  if (!game.hints.length) {
    table.append(h("tr", {}, h("td", { colspan: 4, class: "muted" }, "No moves.")));
  }
  for (const m of game.hints) {
    const exchangeTiles = m.kind === "exchange" ? exchangeLetters(m) : "";
    const row = h("tr", {
      class: "move-row", "data-testid": "hint-row", "data-move": m.move,
      "data-kind": m.kind || "place", "data-tiles": JSON.stringify(m.tiles || []),
      "data-exchange": exchangeTiles,
      onclick: () => handlers.applyMove(m),
      onmouseenter: () => { game.preview = m; renderGameBoard(); },
      onmouseleave: () => { game.preview = null; renderGameBoard(); },
    },
    h("td", { class: "mv" }, m.move), h("td", { class: "num" }, m.score),
    h("td", { class: "rack-text" }, m.leave), h("td", { class: "num" }, fmt(m.value ?? m.equity)));
    table.append(row);
  }
}

// The tiles an exchange hint gives back: the rack minus its leave.
function exchangeLetters(move) {
  const leave = rackTiles(move.leave || "").map((t) => t.letter);
  const out = [];
  for (const t of game.data.rack) {
    const j = leave.indexOf(t.letter);
    if (j >= 0) leave.splice(j, 1);
    else out.push(rackText(t.letter));
  }
  return out.join("");
}

function renderResult() {
  const g = game.data;
  const box = clear($("result"));
  if (!g.result || g.status === "playing") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const winners = g.result.winners || [];
  const me = (g.players || []).find((p) => p.seat === g.human);
  let headline = "Game over";
  if (winners.length > 1) headline = `A tie: ${winners.join(" and ")}`;
  else if (winners.length && me && winners[0] === me.name) headline = "You win!";
  else if (winners.length) headline = `${winners[0]} wins`;
  box.append(h("h3", {}, "Final result"),
    h("p", { class: "winner", "data-testid": "winner" }, headline));
  const table = h("table", { class: "list standings" },
    h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Score"),
      h("th", {}, "Rating")));
  for (const s of g.result.standings || []) {
    table.append(h("tr", { "data-testid": "standing-row", "data-seat": s.seat,
                           "data-score": s.score },
      h("td", {}, s.rank), h("td", {}, s.name),
      h("td", { class: "num", "data-testid": `final-score-${s.seat}` }, s.score),
      h("td", { class: "num" }, ratingChange(s.rating_before, s.rating_after))));
  }
  box.append(table);
}



function renderMessages() {
  const g = game.data;
  const box = clear($("messages"));
  const messages = g.messages || [];
  box.hidden = !messages.length;
  for (const m of messages) box.append(h("div", { "data-testid": "message" }, m));
}
