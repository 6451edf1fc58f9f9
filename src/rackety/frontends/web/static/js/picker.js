// The letter picker: which letter a blank stands for.
import { $, clear, h } from "./dom.js";
import { keyText, typeables, typedTile } from "./tiles.js";

// A blank's letter: a button a tile of the alphabet (CH, L·L ... included),
// or typed: the letters of a tile (C then H for CH; Enter for C alone where
// a longer tile starts with it) or a key of KEYS (1 for Spanish CH).
let pickerResolve = null;
const picker = { letters: [], table: new Map(), typed: "" };

export function pickLetter(letters, keys = {}) {
  const box = $("picker-letters");
  clear(box);
  for (const letter of letters) {
    box.append(h("button", {
      class: [...letter].length > 1 ? "pick multi" : "pick", "data-testid": `pick-${letter}`,
      type: "button", onclick: () => closePicker(letter),
    }, letter));
  }
  picker.letters = letters;
  picker.table = typeables(letters, keys);
  for (const l of letters) picker.table.set(l.toUpperCase(), l);  // C H types CH here
  picker.typed = "";
  pickerHint();
  $("letter-picker").hidden = false;
  return new Promise((resolve) => { pickerResolve = resolve; });
}

function pickerHint() {
  const multi = picker.letters.filter((l) => [...l].length > 1);
  const hint = $("picker-hint");
  hint.hidden = !multi.length;
  if (!multi.length) return;
  const digits = [...picker.table.entries()].filter(([t]) => /^[0-9]$/.test(t))
    .map(([t, l]) => `${t} for ${l}`);
  const typed = picker.typed ? typedTile(picker.typed, picker.table) : null;
  hint.textContent = typed
    ? `Typed ${picker.typed}: type on for ${typed.prefix.join(", ")}` +
      `${typed.label ? `, or Enter for ${typed.label}` : ""}.`
    : "Click a tile, or type its letters (Enter ends one that starts a longer tile)" +
      `${digits.length ? `; ${digits.join(", ")}` : ""}.`;
}

// A key while the picker is open.
export function pickerKey(e) {
  if (e.key === "Escape") {
    closePicker(null);
    return;
  }
  if (e.key === "Enter") {
    e.preventDefault();
    const found = picker.typed && picker.table.get(picker.typed.toUpperCase());
    if (found) closePicker(found);
    return;
  }
  if (e.key === "Backspace") {
    e.preventDefault();
    picker.typed = "";
    pickerHint();
    return;
  }
  const k = keyText(e.key, picker.letters);
  if (e.ctrlKey || e.metaKey || e.altKey || !/^[\p{L}\p{N}·]$/u.test(k)) return;
  e.preventDefault();
  let text = (picker.typed + k).toUpperCase();
  let found = typedTile(text, picker.table);
  if (!found && picker.typed) {  // what was typed leads nowhere with this key: start again
    text = k.toUpperCase();
    found = typedTile(text, picker.table);
  }
  if (!found) return;
  if (found.prefix) {
    picker.typed = text;
    pickerHint();
    return;
  }
  closePicker(found.label);
}

export function closePicker(letter) {
  $("letter-picker").hidden = true;
  const resolve = pickerResolve;
  pickerResolve = null;
  if (resolve) resolve(letter);
}

export function pickerOpen() {
  return !$("letter-picker").hidden;
}

$("picker-cancel").addEventListener("click", () => closePicker(null));
$("letter-picker").addEventListener("click", (e) => {
  if (e.target === $("letter-picker")) closePicker(null);
});
