// rackety: the page. Plain JavaScript modules, no framework, no build step,
// nothing fetched from outside the server. One page, hash routes:
//   #play        the new-game form and the games in progress
//   #game/ID     a game: play it, or view an imported record
//   #analyse     a position (CGP, or edited by hand) and a game record (GCG)
//   #endgame     the endgame or pre-endgame of a position or a record's turn
//   #games       the stored games, and importing a GCG
//   #rankings    the players by rating and the recent results
//   #study       a person's study deck: what is due, asked one item at a time
//   #puzzles     a puzzle to solve, graded, explained and rated
// Everything it shows comes from the server's API, whose requests and answers
// its OpenAPI schema describes (GET /openapi.json): positions are read and
// written there (a CGP read, a position edited), never here. This module
// routes; each page is a module of its own.
import { showAnalyse } from "./analyse.js";
import { api } from "./api.js";
import { $, typingInField } from "./dom.js";
import { editorKey } from "./editor.js";
import { renderEndgame } from "./endgame.js";
import { openGame } from "./game.js";
import { gameKey } from "./game-keys.js";
import { showGames } from "./games.js";
import { closePicker, pickerKey, pickerOpen } from "./picker.js";
import { showPuzzles } from "./puzzles.js";
import { showRankings } from "./rankings.js";
import { gcg, gcgGo } from "./record.js";
import { showPlaySetup } from "./setup.js";
import { showStudy } from "./study.js";
import { currentTab } from "./tabs.js";
import { currentRoute, showView } from "./views.js";

function route() {
  const { name, arg } = currentRoute();
  if (pickerOpen()) closePicker(null);
  switch (name) {
    case "game":
      if (arg) {
        openGame(arg);
        return;
      }
      break;
    case "analyse":
    case "analyze":
      showView("analyse");
      showAnalyse();
      return;
    case "endgame":
      showView("endgame");
      renderEndgame();
      return;
    case "games":
      showView("games");
      showGames();
      return;
    case "rankings":
      showView("rankings");
      showRankings();
      return;
    case "study":
      showView("study");
      showStudy();
      return;
    case "puzzles":
      showView("puzzles");
      showPuzzles();
      return;
    default:
      break;
  }
  showView("play");
  showPlaySetup();
}

document.addEventListener("keydown", (e) => {
  if (pickerOpen()) {
    pickerKey(e);
    return;
  }
  if (typingInField(e)) return;
  const { name } = currentRoute();
  if (name === "game") gameKey(e);
  else if ((name === "analyse" || name === "analyze") && currentTab() === "position") {
    editorKey(e);
  } else if ((name === "analyse" || name === "analyze") && currentTab() === "gcg" && gcg.data) {
    if (e.key === "ArrowLeft") gcgGo(gcg.index - 1);
    if (e.key === "ArrowRight") gcgGo(gcg.index + 1);
  }
});

window.addEventListener("hashchange", route);
route();
api("/api/health").then(() => { $("server-state").textContent = ""; })
  .catch(() => { $("server-state").textContent = "server offline"; });
