// The Analyse page shown: its lexicon choosers filled, an empty board to edit
// the first time, the position and the record drawn.
import { editPosition } from "./api.js";
import { $, fillSelect } from "./dom.js";
import { loadPosition } from "./editor.js";
import { lexiconChoice, lexiconItems, loadOptions } from "./options.js";
import { pos } from "./position-state.js";
import { renderPosition } from "./position-view.js";
import { renderGcg } from "./record.js";

async function fillLexiconSelects() {
  try {
    const options = await loadOptions();
    const auto = { "analyse-lexicon": "the CGP's (lex), or the default",
                   "gcg-lexicon": "the record's, or the default" };
    for (const id of ["analyse-lexicon", "gcg-lexicon"]) {
      const select = $(id);
      if (select.options.length) continue;
      fillSelect(select, [{ value: "", label: auto[id] }].concat(lexiconItems(options)), "");
    }
  } catch (err) {
    // the analysis still works with the server's default lexicon
  }
}

export async function showAnalyse() {
  await fillLexiconSelects();
  if (!pos.initialised) {
    pos.initialised = true;
    try {  // an empty board in the lexicon's alphabet, from the server
      const p = await editPosition({ lexicon: lexiconChoice($("analyse-lexicon")) });
      if (!pos.board) loadPosition(p);
    } catch (err) {
      // an empty board is a nicety; the textarea still works
    }
  }
  renderPosition();
  renderGcg();
}
