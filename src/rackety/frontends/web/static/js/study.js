// The Study page: a person's deck (GET /api/study), its next item
// (GET /api/study/next) asked, the reply graded and scheduled again by the
// server (POST /api/study/answer). The name is kept in this browser.
import { api } from "./api.js";
import { renderBoard, renderRack } from "./board.js";
import { $, clear, h, showError } from "./dom.js";

const KEY = "rackety.study.player";
let current = null; // the item asked: {id, kind, prompt, ...}
let shownAt = 0;

function player() {
  return $("study-player").value.trim();
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// The Mistake Index of each game studied, as bars (oldest on the left).
function chart(games) {
  const holder = clear($("study-chart"));
  if (!games.length) {
    holder.append(h("p", { class: "muted" }, "No game studied yet: import one, or play one."));
    return;
  }
  const shown = games.slice(-30);
  const width = 320;
  const height = 120;
  const top = Math.max(1, ...shown.map((g) => g.mistake_index));
  const step = width / shown.length;
  const picture = svg("svg", { viewBox: `0 0 ${width} ${height + 16}`, width: "100%",
    role: "img", "aria-label": "Mistake Index by game", "data-testid": "study-bars" });
  shown.forEach((g, i) => {
    const bar = Math.max(1, (g.mistake_index / top) * height);
    const rect = svg("rect", { x: i * step + 2, y: height - bar,
      width: Math.max(2, Math.min(40, step - 4)),
      height: bar, class: "mi-bar", "data-testid": "mi-bar" });
    const title = svg("title", {});
    title.textContent = `${g.source}: ${g.mistake_index} (${g.turns} turns)`;
    rect.append(title);
    picture.append(rect);
  });
  const label = svg("text", { x: 0, y: height + 13, class: "mi-label" });
  label.textContent = `highest ${top.toFixed(1)}`;
  picture.append(label);
  holder.append(picture);
}

async function refreshStats() {
  const name = encodeURIComponent(player());
  const data = await api(`/api/study?player=${name}`);
  const stats = $("study-stats");
  stats.textContent = `${data.due} due · ${data.learned} learned · ${data.new} new · ` +
    `next days: ${data.forecast.join(" ")}`;
  stats.hidden = false;
  const progress = await api(`/api/study/progress?player=${name}`);
  chart(progress.games);
  const parts = Object.entries(progress.quiz).filter(([, q]) => q.reviews)
    .map(([label, q]) => `${q.right} % of ${q.reviews} (${label})`);
  $("study-accuracy").textContent = parts.length ? `Answered right: ${parts.join(", ")}`
    : "No answers yet.";
  const pz = progress.puzzles;
  $("study-puzzles").textContent = pz.attempts
    ? `Puzzles: ${pz.solved} of ${pz.attempts} solved, rating ${Math.round(pz.rating)} ` +
      `(± ${Math.round(pz.rd)})` : "No puzzle tried yet.";
  $("study-progress").hidden = false;
}

function ask(item) {
  current = item;
  const card = $("study-card");
  const done = $("study-done");
  clear($("study-result")).hidden = true;
  $("btn-study-next").hidden = true;
  $("study-reply").value = "";
  if (!item) {
    card.hidden = true;
    done.hidden = false;
    return;
  }
  done.hidden = true;
  card.hidden = false;
  const what = { anagrams: "every word of these tiles", hooks: "every hook of this word",
    judge: "valid or phony? (y or n)", puzzle: "a position of yours: your move?" }[item.kind]
    || item.kind;
  const puzzle = item.kind === "puzzle" && item.position;
  $("study-position").hidden = !puzzle;
  $("study-prompt").hidden = !!puzzle;
  if (puzzle) {
    renderBoard($("study-board"), item.position.board);
    renderRack($("study-rack"), item.position.racks[0] || []);
  }
  const plural = item.answers === 1 ? "" : "s";
  const count = item.kind === "judge" || puzzle ? "" : ` · ${item.answers} answer${plural}`;
  const rank = item.rank ? ` · #${item.rank}` : "";
  $("study-meta").textContent = `${item.new ? "new · " : ""}${what}${count}${rank}`;
  $("study-prompt").textContent = item.prompt;
  $("study-reply").placeholder = item.kind === "judge" ? "y or n"
    : puzzle ? "your move: 8D WORD, pass, -ABC" : "the words, separated by spaces";
  $("study-reply").focus();
  shownAt = performance.now();
}

async function nextItem() {
  const data = await api(`/api/study/next?player=${encodeURIComponent(player())}`);
  ask(data.item);
}

async function openDeck(event) {
  event.preventDefault();
  showError($("study-error"), "");
  try {
    localStorage.setItem(KEY, player());
    await refreshStats();
    await nextItem();
  } catch (err) {
    showError($("study-error"), err.message);
  }
}

async function answer(event) {
  event.preventDefault();
  if (!current) return;
  const seconds = (performance.now() - shownAt) / 1000;
  try {
    const data = await api("/api/study/answer", { method: "POST",
      body: { player: player(), item: current.id, reply: $("study-reply").value, seconds } });
    const box = clear($("study-result"));
    box.append(h("p", { class: data.correct ? "right" : "wrong",
      "data-testid": "study-verdict" }, data.correct ? "Right" : "Not quite"));
    if (current.kind !== "judge") {
      box.append(h("p", {}, "Answers: ", h("strong", { "data-testid": "study-answers" },
        data.answers.join(current.kind === "puzzle" ? " or " : " ") || "(none)")));
    }
    if (data.wrong.length) {
      box.append(h("p", { class: "muted" }, `Not answers: ${data.wrong.join(" ")}`));
    }
    if (data.unreadable.length) {
      box.append(h("p", { class: "muted" }, `Not of the alphabet: ${data.unreadable.join(" ")}`));
    }
    box.hidden = false;
    current = null;
    $("btn-study-next").hidden = false;
    $("btn-study-next").focus();
    await refreshStats();
  } catch (err) {
    showError($("study-error"), err.message);
  }
}

let wired = false;

export function showStudy() {
  if (!wired) {
    $("study-form").addEventListener("submit", openDeck);
    $("study-answer-form").addEventListener("submit", answer);
    $("btn-study-next").addEventListener("click", () => {
      nextItem().catch((err) => showError($("study-error"), err.message));
    });
    wired = true;
  }
  const saved = localStorage.getItem(KEY);
  if (saved && !player()) $("study-player").value = saved;
}
