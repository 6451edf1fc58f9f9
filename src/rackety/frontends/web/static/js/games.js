// The Games page: the stored games, and a GCG record imported to view or to
// go on with.
import { api } from "./api.js";
import { $, clear, h, readFileText, showError } from "./dom.js";
import { shortDate } from "./format.js";
import { setGame } from "./game.js";
import { game } from "./game-state.js";

export async function showGames() {
  const table = clear($("games-table"));
  try {
    const data = await api("/api/games?limit=100");
    const games = data.games || [];
    $("games-empty").hidden = games.length > 0;
    if (!games.length) return;
    table.append(h("tr", {}, h("th", {}, "Game"), h("th", {}, "Updated"),
      h("th", {}, "Players"), h("th", {}, "Lexicon"), h("th", {}, "Status"),
      h("th", {}, "Winner"), h("th", {}, "")));
    for (const g of games) {
      const players = (g.players || []).map((p) => h("span", { class: "player-score" },
        p.name, h("b", {}, ` ${p.score}`)));
      table.append(h("tr", { "data-testid": "game-row", "data-id": g.id },
        h("td", {}, h("a", { href: `#game/${g.id}`, "data-testid": "game-link" },
          `#${g.id}`)),
        h("td", { class: "muted" }, shortDate(g.updated || g.created)),
        h("td", {}, players),
        h("td", {}, g.lexicon || ""),
        h("td", {}, h("span", { class: `badge ${g.status}` }, g.status),
          g.to_move ? h("span", { class: "muted", "data-testid": "game-to-move" },
            ` ${g.to_move} to move`) : null),
        h("td", {}, g.winner || ""),
        h("td", { class: "actions" },
          h("a", { href: `#game/${g.id}`, class: "btn small" },
            g.status === "playing" ? "Resume" : "View"),
          h("a", { href: `/api/games/${g.id}/gcg`, download: `game-${g.id}.gcg`,
                   class: "btn small", "data-testid": "game-gcg" }, "GCG"))));
    }
  } catch (err) {
    showError($("import-error"), `Could not list the games: ${err.message}`);
  }
}


// POST /api/gcg/import: a record to view, or (playAs) a game to go on with
function importRecord(text, playAs) {
  const body = { gcg: text };
  if (playAs) body.play_as = playAs;
  return api("/api/gcg/import", { method: "POST", body });
}

// the players a record declares (#playerN NICK NAME), for "go on playing as"
function recordPlayers(text) {
  const out = [];
  for (const m of String(text).matchAll(/^#player\d+[ \t]+(\S+)(?:[ \t]+(.*))?$/gm)) {
    out.push({ nick: m[1], name: (m[2] || "").trim() || m[1] });
  }
  return out;
}

function fillPlayAs() {
  const select = $("import-play-as");
  const keep = select.value;
  clear(select);
  select.append(h("option", { value: "" }, "nobody: just view it"));
  for (const p of recordPlayers($("import-text").value)) {
    select.append(h("option", { value: p.nick }, p.name));
  }
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}
$("import-text").addEventListener("input", fillPlayAs);

$("import-file").addEventListener("change", async (e) => {
  try {
    const text = await readFileText(e.target);
    if (text !== null) {
      $("import-text").value = text;
      fillPlayAs();
    }
  } catch (err) {
    showError($("import-error"), err.message);
  }
});
$("btn-import").addEventListener("click", async () => {
  showError($("import-error"), "");
  const text = $("import-text").value;
  if (!text.trim()) {
    showError($("import-error"), "Choose a GCG file or paste one first.");
    return;
  }
  try {
    const g = await importRecord(text, $("import-play-as").value);
    $("import-text").value = "";
    fillPlayAs();
    $("import-file").value = "";
    game.data = null;
    setGame(g, { fresh: true });
    game.justLoaded = true;
    location.hash = `#game/${g.id}`;
  } catch (err) {
    showError($("import-error"), err.message);
  }
});
