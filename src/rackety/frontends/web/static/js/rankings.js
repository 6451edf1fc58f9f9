// The Rankings page: the players by rating and the latest finished games.
import { api } from "./api.js";
import { $, clear, h } from "./dom.js";
import { fmt, ratingChange, shortDate } from "./format.js";

export async function showRankings() {
  const table = clear($("rankings-table"));
  const recent = clear($("recent-games"));
  try {
    const data = await api("/api/rankings");
    table.append(h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Kind"),
      h("th", {}, "Rating"), h("th", {}, "Games"), h("th", {}, "W"), h("th", {}, "L"),
      h("th", {}, "D")));
    (data.players || []).forEach((p, i) => table.append(h("tr", {
      "data-testid": "ranking-row", "data-name": p.name },
    h("td", { class: "rank" }, i + 1), h("td", { class: "name" }, p.name),
    h("td", { class: "muted" },
      p.kind === "computer" ? `computer${p.level ? ` · ${p.level}` : ""}` : "human"),
    h("td", { class: "num rating" }, fmt(p.rating, 0)), h("td", { class: "num" }, p.games),
    h("td", { class: "num" }, p.wins), h("td", { class: "num" }, p.losses),
    h("td", { class: "num" }, p.draws))));
    if (!(data.players || []).length) {
      table.append(h("tr", {}, h("td", { class: "muted", colspan: 8 },
        "No rated games yet: finish a game to get a rating.")));
    }
    for (const g of data.games || []) {
      const t = h("table", { class: "list standings" },
        h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Score"),
          h("th", {}, "Rating")));
      for (const s of g.standings || []) {
        t.append(h("tr", {}, h("td", {}, s.rank), h("td", {}, s.name),
          h("td", { class: "num" }, s.score),
          h("td", { class: "num" }, ratingChange(s.rating_before, s.rating_after))));
      }
      recent.append(h("div", { class: "recent-game", "data-testid": "recent-game" },
        h("div", { class: "recent-head" },
          h("a", { href: `#game/${g.id}` }, `Game #${g.id}`),
          h("span", { class: "muted" }, ` ${shortDate(g.updated || g.created)}`)), t));
    }
    if (!(data.games || []).length) {
      recent.append(h("p", { class: "muted" }, "No finished games yet."));
    }
  } catch (err) {
    recent.append(h("div", { class: "error" }, `Could not load the rankings: ${err.message}`));
  }
}
