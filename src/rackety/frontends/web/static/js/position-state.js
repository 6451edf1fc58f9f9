// The position analysed on the Analyse page, and its board editor's state.
import { $ } from "./dom.js";

export const pos = {
  board: null, // BOARD shown
  racks: [], // TILE lists
  moves: [], // MOVEs (detail)
  count: null,
  leaves: null, // the leave values of the equity, as the API names them
  adjustment: null, // what full static equity adds on this position, in words
  pinned: null, // the move shown on the board (the top one by default)
  hover: null, // the move under the mouse
  sim: null,
  edit: false,
  grid: null, // the editor's grid: null | {letter, blank}
  cursor: null,
  base: null, // the CGP of the position the editor started from (its rules, turns, options)
  pending: "", // letters typed after '[' for a multi-letter tile
  refresh: null, // the timer of the editor's next request
  asked: 0, // the editor's requests so far: only the latest one's answer counts
  synced: null, // while the server writes the editor's CGP: a promise of it (null if refused)
  refused: false, // whether the server refused the editor's latest position (the CGP box older)
  initialised: false,
};

// the example the position form shows (its placeholder): Analyse on the untouched
// form analyses it
export const EXAMPLE_CGP = $("cgp-input").getAttribute("placeholder") || "";
