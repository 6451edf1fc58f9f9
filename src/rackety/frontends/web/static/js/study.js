// The Study page: a person's deck (GET /api/study), its next item
// (GET /api/study/next) asked, the reply graded and scheduled again by the
// server (POST /api/study/answer). The name is kept in this browser.
import { api } from "./api.js";
import { $, clear, h, showError } from "./dom.js";

const KEY = "rackety.study.player";
let current = null; // the item asked: {id, kind, prompt, ...}
let shownAt = 0;

function player() {
  return $("study-player").value.trim();
}

async function refreshStats() {
  const name = player();
  const data = await api(`/api/study?player=${encodeURIComponent(name)}`);
  const stats = $("study-stats");
  stats.textContent = `${data.due} due · ${data.learned} learned · ${data.new} new · ` +
    `next days: ${data.forecast.join(" ")}`;
  stats.hidden = false;
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
    judge: "valid or phony? (y or n)" }[item.kind] || item.kind;
  const plural = item.answers === 1 ? "" : "s";
  const count = item.kind === "judge" ? "" : ` · ${item.answers} answer${plural}`;
  const rank = item.rank ? ` · #${item.rank}` : "";
  $("study-meta").textContent = `${item.new ? "new · " : ""}${what}${count}${rank}`;
  $("study-prompt").textContent = item.prompt;
  $("study-reply").placeholder = item.kind === "judge" ? "y or n"
    : "the words, separated by spaces";
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
        data.answers.join(" ") || "(none)")));
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
