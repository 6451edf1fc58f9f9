// The Play page: the new-game form (lexicon, board, rules, opponents) and the
// games in progress.
import { api } from "./api.js";
import { $, clear, fillSelect, h, showError } from "./dom.js";
import { setGame } from "./game.js";
import { game } from "./game-state.js";
import { lexiconItems, loadOptions } from "./options.js";
import { typingWays } from "./tiles.js";

// Under the lexicon chooser: its alphabet's tiles of several letters and how
// to type them.
function lexiconNote(options) {
  const name = $("opt-lexicon").value;
  const alphabet = (options.lexicon_alphabets || {})[name] || "english";
  const labels = ((options.alphabets || {})[name] || []).map((t) => t.letter);
  const ways = typingWays(labels, (options.keys || {})[alphabet]);
  const note = $("opt-lexicon-note");
  note.hidden = !ways.length;
  note.textContent = ways.length
    ? `${alphabet[0].toUpperCase()}${alphabet.slice(1)} tiles: ` +
      `${labels.filter((l) => [...l].length > 1).join(" ")} are one tile each; type ` +
      `${ways.join(", ")}.`
    : "";
}

const setup = { opponents: [{ level: null, seconds: 2 }], levels: [] };

function levelInfo(id) {
  return setup.levels.find((l) => l.id === id) || { id, label: id };
}

function renderOpponents() {
  const box = clear($("opponents"));
  setup.opponents.forEach((opp, i) => {
    const level = h("select", {
      "data-testid": `opp-level-${i}`, id: `opp-level-${i}`,
      onchange: (e) => { opp.level = e.target.value; renderOpponents(); },
    });
    fillSelect(level, setup.levels.map((l) => ({ value: l.id, label: l.label || l.id })),
               opp.level);
    const info = levelInfo(opp.level);
    const clocked = opp.level === "best" && $("opt-clock").value !== "";
    const seconds = clocked ? h("span", { class: "muted" }, " plays on the game clock")
      : info.seconds ? h("label", { class: "inline" },
      h("input", {
        type: "number", min: "0.2", max: "60", step: "0.1", value: opp.seconds ?? 2,
        class: "num", "data-testid": `opp-seconds-${i}`,
        oninput: (e) => { opp.seconds = Number(e.target.value); },
      }), " s a move") : null;
    const remove = setup.opponents.length > 1 ? h("button", {
      type: "button", class: "btn small ghost", "data-testid": `opp-remove-${i}`,
      title: "Remove this opponent",
      onclick: () => { setup.opponents.splice(i, 1); renderOpponents(); },
    }, "✕") : null;
    box.append(h("div", { class: "opponent", "data-testid": "opponent" },
      h("span", { class: "opp-name" }, `Computer ${i + 1}`), level, seconds, remove));
  });
  $("btn-add-opponent").disabled = setup.opponents.length >= 3;
}

$("opt-clock").addEventListener("change", renderOpponents);

$("btn-add-opponent").addEventListener("click", () => {
  if (setup.opponents.length < 3) {
    setup.opponents.push({ level: setup.opponents[setup.opponents.length - 1].level,
                           seconds: 2 });
    renderOpponents();
  }
});

export async function showPlaySetup() {
  showError($("setup-error"), "");
  try {
    const options = await loadOptions();
    if (!setup.filled) {
      fillSelect($("opt-lexicon"), lexiconItems(options), options.default_lexicon);
      $("opt-lexicon").addEventListener("change", () => lexiconNote(options));
      lexiconNote(options);
      fillSelect($("opt-layout"), (options.layouts || []).map((l) => ({
        value: l.name, label: l.description ? `${l.name}: ${l.description}` : l.name,
      })), "standard15");
      const rules = options.challenge_rules || [];
      fillSelect($("opt-challenge"), rules, options.default_challenge || rules[0]);
      fillSelect($("opt-variant"), options.variants || ["classic"], "classic");
      setup.levels = options.levels || [];
      const ids = setup.levels.map((l) => l.id);
      for (const opp of setup.opponents) {
        if (!ids.includes(opp.level)) {
          opp.level = ids.includes(options.default_level) ? options.default_level : ids[0];
        }
      }
      setup.filled = true;
    }
    renderOpponents();
  } catch (err) {
    showError($("setup-error"), `Could not load the options: ${err.message}`);
  }
  try {
    const data = await api("/api/games?limit=20");
    const playing = (data.games || []).filter((g) => g.status === "playing");
    const list = clear($("resume-list"));
    for (const g of playing) {
      const who = (g.players || []).map((p) => `${p.name} ${p.score}`).join(" · ");
      list.append(h("li", {},
        h("a", { href: `#game/${g.id}`, "data-testid": "resume-link" }, `Game ${g.id}`),
        h("span", { class: "muted" }, ` ${who}`)));
    }
    $("resume-card").hidden = playing.length === 0;
  } catch (err) {
    $("resume-card").hidden = true;
  }
}

$("new-game-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  showError($("setup-error"), "");
  const body = {
    lexicon: $("opt-lexicon").value || null,
    layout: $("opt-layout").value || "standard15",
    human: $("opt-name").value.trim() || "you",
    opponents: setup.opponents.map((o) => ({
      level: o.level,
      seconds: levelInfo(o.level).seconds ? Number(o.seconds || 2) : null,
    })),
    challenge: $("opt-challenge").value || undefined,  // the server's default
    variant: $("opt-variant").value || "classic",
    human_first: $("opt-first").value !== "computer",
  };
  const clock = $("opt-clock").value;
  if (clock !== "") body.clock = Number(clock);
  const seed = $("opt-seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  const button = $("btn-start");
  button.disabled = true;
  button.textContent = "Starting…";
  try {
    const g = await api("/api/games", { method: "POST", body });
    game.data = null;
    setGame(g, { fresh: true });
    game.justLoaded = true;
    location.hash = `#game/${g.id}`;
  } catch (err) {
    showError($("setup-error"), err.message);
  } finally {
    button.disabled = false;
    button.textContent = "Start the game";
  }
});
