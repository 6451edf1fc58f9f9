// What the server offers (GET /api/options: lexicons, layouts, levels, rules),
// asked once, and the lexicon choosers made from it.
import { api } from "./api.js";

let optionsPromise = null;
export function loadOptions() {
  if (!optionsPromise) {
    optionsPromise = api("/api/options").catch((err) => {
      optionsPromise = null;
      throw err;
    });
  }
  return optionsPromise;
}

// The lexicons on offer, each with its alphabet when it is not English.
export function lexiconItems(options) {
  const alphabets = options.lexicon_alphabets || {};
  return (options.lexicons || []).map((l) => ({
    value: l,
    label: alphabets[l] && alphabets[l] !== "english" ? `${l} (${alphabets[l]})` : l,
  }));
}

// The lexicon a chooser names, or null for the server's choice.
export function lexiconChoice(select) {
  return select.value || null;
}
