// Tiles as the page knows them: their points as the server said, how a
// person types tiles of several letters, and racks written as text.

// Tile points seen so far, by label: tiles the user types in the board
// editor have no points until the server has seen the position.
const knownPoints = new Map();
export function pointsOf(label) {
  return knownPoints.get(label);
}
export function learnTiles(tiles) {
  for (const t of tiles || []) {
    if (t && !t.blank && t.letter && typeof t.points === "number") {
      knownPoints.set(t.letter, t.points);
    }
  }
}
export function learnBoard(board) {
  if (!board || !board.squares) return;
  for (const row of board.squares) learnTiles(row);
}

// Tiles of several letters (Catalan L·L NY QU, Spanish CH LL RR) are typed
// "[" label "]" always, and without brackets as KEYS say (from the server:
// typed text -> label): the label where plain text reads it as that tile
// (Catalan NY), a digit where the alphabet has one (Spanish 1 for CH).
// What the keyboard types: every one-letter label itself, and KEYS.
export function typeables(labels, keys) {
  const out = new Map();
  for (const l of labels) if ([...l].length === 1 && l !== "?") out.set(l, l);
  for (const [typed, label] of Object.entries(keys || {})) out.set(typed.toUpperCase(), label);
  return out;
}
// What TEXT typed so far is: {label} a tile, {prefix: [...]} the start of longer
// ones (wait for more), or null.
export function typedTile(text, table) {
  const up = text.toUpperCase();
  const longer = [...table.keys()].filter((t) => t.length > up.length && t.startsWith(up));
  if (longer.length) return { prefix: longer.map((t) => table.get(t)), label: table.get(up) };
  return table.has(up) ? { label: table.get(up) } : null;
}
// A key as typed: "." stands for the middle dot of L·L where an alphabet has one.
export function keyText(key, labels) {
  if (key === "." && labels.some((l) => l.includes("·"))) return "·";
  return key;
}
// How to type each tile of several letters, in words: "[CH] or 1, NY or [NY]".
export function typingWays(labels, keys) {
  return labels.filter((l) => [...l].length > 1 && l !== "?").map((l) => {
    const typed = Object.entries(keys || {}).filter(([, label]) => label === l)
      .map(([t]) => t);
    const bare = typed.filter((t) => t === l);
    return [...bare, `[${l}]`, ...typed.filter((t) => t !== l)].join(" or ");
  });
}

// A tile label as written in a rack string: multi-letter tiles in brackets.
export function rackText(label) {
  return label.length > 1 && label !== "?" ? `[${label}]` : label;
}

// A rack given as a string ("AEI?[CH]") or a list of TILEs, as TILEs.
export function rackTiles(rack) {
  if (!rack) return [];
  if (Array.isArray(rack)) {
    return rack.map((t) => (typeof t === "string" ? stringTile(t) : t));
  }
  const out = [];
  const re = /\[([^\]]+)\]|./gu;
  let m;
  while ((m = re.exec(String(rack))) !== null) {
    const label = m[1] || m[0];
    if (label.trim()) out.push(stringTile(label.toUpperCase()));
  }
  return out;
}
function stringTile(label) {
  if (label === "?") return { letter: "?", points: 0, blank: true };
  return { letter: label, points: knownPoints.get(label), blank: false };
}
