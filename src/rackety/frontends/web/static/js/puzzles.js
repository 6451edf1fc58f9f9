// The Puzzles page: a puzzle the person has not tried (GET /api/puzzles/next),
// its board and rack drawn, the move graded, explained and rated by the
// server (POST /api/puzzles/answer). The name is the Study page's.
import { api } from "./api.js";
import { renderBoard, renderRack } from "./board.js";
import { $, clear, h, showError } from "./dom.js";

const KEY = "rackety.study.player";
let current = null; // the puzzle shown: {id, tags, lexicon, position}
let shownAt = 0;

function player() {
  return $("puzzle-player").value.trim();
}

function show(puzzle) {
  current = puzzle;
  clear($("puzzle-result")).hidden = true;
  $("puzzle-none").hidden = !!puzzle;
  $("puzzle-card").hidden = !puzzle;
  if (!puzzle) return;
  const p = puzzle.position;
  $("puzzle-meta").textContent = `${puzzle.tags.join(" · ")} · scores ${p.scores.join("-")}` +
    ` · ${p.bag} in the bag`;
  renderBoard($("puzzle-board"), p.board);
  renderRack($("puzzle-rack"), p.racks[0] || []);
  $("puzzle-reply").value = "";
  $("puzzle-reply").focus();
  shownAt = performance.now();
}

async function next(event) {
  if (event) event.preventDefault();
  showError($("puzzle-error"), "");
  try {
    localStorage.setItem(KEY, player());
    const tag = $("puzzle-tag").value;
    const query = `player=${encodeURIComponent(player())}` +
      (tag ? `&tag=${encodeURIComponent(tag)}` : "");
    show((await api(`/api/puzzles/next?${query}`)).puzzle);
  } catch (err) {
    showError($("puzzle-error"), err.message);
  }
}

async function answer(event) {
  event.preventDefault();
  if (!current) return;
  const seconds = (performance.now() - shownAt) / 1000;
  try {
    const data = await api("/api/puzzles/answer", { method: "POST",
      body: { player: player(), puzzle: current.id, reply: $("puzzle-reply").value, seconds } });
    const box = clear($("puzzle-result"));
    box.append(h("p", { class: data.correct ? "right" : "wrong",
      "data-testid": "puzzle-verdict" }, data.correct ? "Right" : "Not this one"));
    if (data.error) box.append(h("p", { class: "muted" }, data.error));
    box.append(h("p", {}, "The answer: ", h("strong", { "data-testid": "puzzle-answers" },
      data.answers.join(" or "))));
    box.append(h("p", { "data-testid": "puzzle-why" }, data.why));
    if (data.alternatives.length) {
      box.append(h("p", { class: "muted" }, "Next: " + data.alternatives
        .map((a) => `${a.move} ${a.value >= 0 ? "+" : ""}${a.value.toFixed(1)}`).join(", ")));
    }
    box.append(h("p", { class: "muted", "data-testid": "puzzle-rating" },
      `Your rating ${Math.round(data.rating)} (± ${Math.round(data.rd)}); ` +
      `the puzzle's ${Math.round(data.puzzle_rating)}`));
    box.hidden = false;
    current = null;
  } catch (err) {
    showError($("puzzle-error"), err.message);
  }
}

let wired = false;

export function showPuzzles() {
  if (!wired) {
    $("puzzle-form").addEventListener("submit", next);
    $("puzzle-answer-form").addEventListener("submit", answer);
    wired = true;
  }
  const saved = localStorage.getItem(KEY);
  if (saved && !player()) $("puzzle-player").value = saved;
}
