// rackety: the page. Plain JavaScript, no framework, no build step, nothing
// fetched from outside the server. One page, hash routes:
//   #play        the new-game form and the games in progress
//   #game/ID     a game: play it, or view an imported record
//   #analyse     a position (CGP, or edited by hand) and a game record (GCG)
//   #endgame     the endgame or pre-endgame of a position or a record's turn
//   #games       the stored games, and importing a GCG
//   #rankings    the players by rating and the recent results
// The API contract is /tmp/web/SPEC.md (shapes BOARD, TILE, MOVE, GAME).
"use strict";

(() => {
  // ================================================================ utilities
  const $ = (id) => document.getElementById(id);

  // h("div", {class: "x", "data-testid": "y", onclick: fn}, child, "text", ...)
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        node.addEventListener(key.slice(2), value);
      } else if (key === "class") {
        node.className = value;
      } else if (key === "style" && typeof value === "object") {
        Object.assign(node.style, value);
      } else if (value === true) {
        node.setAttribute(key, "");
      } else {
        node.setAttribute(key, String(value));
      }
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  // The server's errors are {"detail": "one line"}; a 422 from FastAPI's own
  // validation may carry a list of errors instead.
  function errorText(data, status, statusText) {
    if (data && typeof data === "object" && "detail" in data) {
      const d = data.detail;
      if (typeof d === "string") return d;
      if (Array.isArray(d)) {
        return d.map((e) => (e && e.msg ? `${(e.loc || []).slice(1).join(".")}: ${e.msg}`
                                         : JSON.stringify(e))).join("; ");
      }
      return JSON.stringify(d);
    }
    if (typeof data === "string" && data.trim()) return data.trim().slice(0, 300);
    return `${status} ${statusText || "error"}`;
  }

  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.status = status;
    }
  }

  async function api(path, { method = "GET", body } = {}) {
    const options = { method, headers: { Accept: "application/json" } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, options);
    } catch (err) {
      throw new ApiError("The server does not answer (is `rackety serve` running?)", 0);
    }
    const text = await response.text();
    let data = null;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch (err) {
        data = text;
      }
    }
    if (!response.ok) {
      throw new ApiError(errorText(data, response.status, response.statusText),
                         response.status);
    }
    return data;
  }

  function showError(box, message) {
    if (!box) return;
    if (message) {
      box.textContent = message;
      box.hidden = false;
    } else {
      box.textContent = "";
      box.hidden = true;
    }
  }

  let toastTimer = null;
  function toast(message) {
    const box = $("toast");
    box.textContent = message;
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
  }

  function fmt(x, digits = 1) {
    if (x === null || x === undefined || Number.isNaN(Number(x))) return "";
    return Number(x).toFixed(digits);
  }

  function signed(x, digits = 0) {
    const v = Number(x);
    const s = v.toFixed(digits);
    return v > 0 ? `+${s}` : s;
  }

  function key(r, c) {
    return `${r},${c}`;
  }

  // Typing in a field must not place tiles or move through turns.
  function typingInField(event) {
    const t = event.target;
    if (!t || !t.tagName) return false;
    if (t.tagName === "INPUT") {
      return !["checkbox", "radio", "button", "submit", "file"].includes(t.type);
    }
    return ["TEXTAREA", "SELECT"].includes(t.tagName) || t.isContentEditable;
  }

  function readFileText(input) {
    return new Promise((resolve, reject) => {
      const file = input.files && input.files[0];
      if (!file) {
        resolve(null);
        return;
      }
      if (file.size > 1024 * 1024) {
        reject(new Error("That file is larger than 1 MB; a GCG is a few kilobytes."));
        return;
      }
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(new Error("The file could not be read."));
      reader.readAsText(file);
    });
  }

  // Tile points seen so far, by label: tiles the user types in the board
  // editor have no points until the server has seen the position.
  const knownPoints = new Map();
  function learnTiles(tiles) {
    for (const t of tiles || []) {
      if (t && !t.blank && t.letter && typeof t.points === "number") {
        knownPoints.set(t.letter, t.points);
      }
    }
  }
  function learnBoard(board) {
    if (!board || !board.squares) return;
    for (const row of board.squares) learnTiles(row);
  }

  // Tiles of several letters (Catalan L·L NY QU, Spanish CH LL RR) are typed
  // "[" label "]" always, and without brackets as KEYS say (from the server:
  // typed text -> label): the label where plain text reads it as that tile
  // (Catalan NY), a digit where the alphabet has one (Spanish 1 for CH).
  // What the keyboard types: every one-letter label itself, and KEYS.
  function typeables(labels, keys) {
    const out = new Map();
    for (const l of labels) if ([...l].length === 1 && l !== "?") out.set(l, l);
    for (const [typed, label] of Object.entries(keys || {})) out.set(typed.toUpperCase(), label);
    return out;
  }
  // What TEXT typed so far is: {label} a tile, {prefix: [...]} the start of longer
  // ones (wait for more), or null.
  function typedTile(text, table) {
    const up = text.toUpperCase();
    const longer = [...table.keys()].filter((t) => t.length > up.length && t.startsWith(up));
    if (longer.length) return { prefix: longer.map((t) => table.get(t)), label: table.get(up) };
    return table.has(up) ? { label: table.get(up) } : null;
  }
  // A key as typed: "." stands for the middle dot of L·L where an alphabet has one.
  function keyText(key, labels) {
    if (key === "." && labels.some((l) => l.includes("·"))) return "·";
    return key;
  }
  // How to type each tile of several letters, in words: "[CH] or 1, NY or [NY]".
  function typingWays(labels, keys) {
    return labels.filter((l) => [...l].length > 1 && l !== "?").map((l) => {
      const typed = Object.entries(keys || {}).filter(([, label]) => label === l)
        .map(([t]) => t);
      const bare = typed.filter((t) => t === l);
      return [...bare, `[${l}]`, ...typed.filter((t) => t !== l)].join(" or ");
    });
  }

  // A tile label as written in a rack string: multi-letter tiles in brackets.
  function rackText(label) {
    return label.length > 1 && label !== "?" ? `[${label}]` : label;
  }

  // A rack given as a string ("AEI?[CH]") or a list of TILEs, as TILEs.
  function rackTiles(rack) {
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

  // ================================================================ the board
  const PREMIUM_LABELS = { TW: "TW", DW: "DW", TL: "TL", DL: "DL", QW: "QW", QL: "QL" };

  function tileNode(tile, extra = "", attrs = {}) {
    const label = tile.letter || "";
    const cls = ["tile"];
    if (tile.blank) cls.push("blank");
    if (label.length > 1 && label !== "?") cls.push(label.length > 2 ? "tri" : "multi");
    if (extra) cls.push(extra);
    const shown = tile.blank && label !== "?" ? label.toLowerCase() : label;
    const points = tile.blank ? "" : (tile.points ?? "");
    return h("div", { class: cls.join(" "), ...attrs },
      h("span", { class: "letter" }, shown),
      h("span", { class: "points" }, points === 0 ? "" : points));
  }

  // Draw BOARD into holder. opts:
  //   overlay:  [{row, col, letter, points, blank, cls, attrs}] tiles drawn on empty squares
  //   marks:    Map "r,c" -> class added to the square (e.g. "last", "marked")
  //   cursor:   {row, col, dir: "across"|"down"}
  //   onSquare: (row, col, event) => ...
  //   onDrop:   (row, col, event) => ...   (squares become drop targets)
  //   animate:  Set of "r,c" whose tiles play the arrival animation
  function renderBoard(holder, board, opts = {}) {
    clear(holder);
    if (!board) return;
    const n = board.size;
    // column letters and row numbers from the server, unless they are not
    // one label per line
    const distinct = (xs) => Array.isArray(xs) && xs.length === n && new Set(xs).size === n;
    const cols = distinct(board.columns) ? board.columns
      : [...Array(n)].map((_, i) => String.fromCharCode(65 + i));
    const rows = distinct(board.rows) ? board.rows : [...Array(n)].map((_, i) => String(i + 1));
    const grid = h("div", { class: "board", "data-size": n });
    grid.style.setProperty("--n", n);
    // a square: at most 570/n px, the height of the window, and the width of the
    // column (cqi, when the layout is one column: a phone), which holds the
    // coordinates (0.55 of a square), n squares, n gaps of 2px and 12px of padding
    grid.style.setProperty("--sq",
      `max(12px, min(${Math.floor(570 / n)}px, calc((100vh - 240px) / ${n + 1}), ` +
      `calc((100cqi - ${2 * n + 13}px) / ${n + 0.55})))`);
    const overlay = new Map();
    for (const t of opts.overlay || []) overlay.set(key(t.row, t.col), t);
    const marks = opts.marks || new Map();
    const animate = opts.animate || new Set();
    const start = board.start || [Math.floor(n / 2), Math.floor(n / 2)];

    grid.append(h("div", { class: "coord corner" }));
    for (let c = 0; c < n; c++) grid.append(h("div", { class: "coord col" }, cols[c]));
    for (let r = 0; r < n; r++) {
      grid.append(h("div", { class: "coord row" }, rows[r]));
      for (let c = 0; c < n; c++) {
        const premium = (board.premiums && board.premiums[r] && board.premiums[r][c]) || "";
        const tile = board.squares && board.squares[r] ? board.squares[r][c] : null;
        const k = key(r, c);
        const cls = ["sq"];
        if (premium) cls.push(`prem-${premium}`);
        if (r === start[0] && c === start[1]) cls.push("start");
        if (marks.has(k)) cls.push(marks.get(k));
        const sq = h("div", {
          class: cls.join(" "), "data-testid": `sq-${r}-${c}`, "data-row": r, "data-col": c,
          "data-premium": premium || null, title: `${rows[r]}${cols[c]}`,
        });
        if (tile) {
          sq.classList.add("filled");
          sq.dataset.letter = tile.letter;
          sq.append(tileNode(tile, animate.has(k) ? "arrive" : ""));
        } else if (overlay.has(k)) {
          const t = overlay.get(k);
          sq.classList.add("filled", "overlaid");
          sq.dataset.letter = t.letter;
          sq.append(tileNode(t, t.cls || "", t.attrs || {}));
        } else if (r === start[0] && c === start[1]) {
          sq.append(h("span", { class: "prem-label star" }, "★"));
        } else if (premium) {
          sq.append(h("span", { class: "prem-label" }, PREMIUM_LABELS[premium] || premium));
        }
        if (opts.cursor && opts.cursor.row === r && opts.cursor.col === c) {
          sq.classList.add("cursor");
          sq.append(h("span", { class: `cursor-arrow ${opts.cursor.dir}` },
            opts.cursor.dir === "down" ? "▼" : "▶"));
        }
        if (opts.onSquare) sq.addEventListener("click", (e) => opts.onSquare(r, c, e));
        if (opts.onDrop) {
          sq.addEventListener("dragover", (e) => {
            if (!tile && !overlay.has(k)) {
              e.preventDefault();
              e.dataTransfer.dropEffect = "move";
              sq.classList.add("drop-target");
            }
          });
          sq.addEventListener("dragleave", () => sq.classList.remove("drop-target"));
          sq.addEventListener("drop", (e) => {
            e.preventDefault();
            sq.classList.remove("drop-target");
            opts.onDrop(r, c, e);
          });
        }
        grid.append(sq);
      }
    }
    holder.append(grid);
    return grid;
  }

  // The tiles of a MOVE (detail) as overlay entries.
  function moveOverlay(move, cls) {
    if (!move || !Array.isArray(move.tiles)) return [];
    return move.tiles.map((t) => ({
      row: t.row, col: t.col, letter: t.letter, blank: !!t.blank,
      points: t.blank ? 0 : (t.points ?? knownPoints.get(t.letter)), cls,
    }));
  }

  function moveSquares(move) {
    if (!move) return [];
    if (Array.isArray(move.squares)) return move.squares;
    if (Array.isArray(move.tiles)) return move.tiles.map((t) => [t.row, t.col]);
    return [];
  }

  function marksOf(squares, cls, marks = new Map()) {
    for (const [r, c] of squares || []) marks.set(key(r, c), cls);
    return marks;
  }

  function renderRack(holder, tiles, attrsFor) {
    clear(holder);
    tiles.forEach((t, i) => holder.append(tileNode(t, "rack-tile",
      attrsFor ? attrsFor(t, i) : { "data-testid": "rack-tile", "data-letter": t.letter })));
  }

  // ================================================================ letter picker
  // A blank's letter: a button a tile of the alphabet (CH, L·L ... included),
  // or typed: the letters of a tile (C then H for CH; Enter for C alone where
  // a longer tile starts with it) or a key of KEYS (1 for Spanish CH).
  let pickerResolve = null;
  const picker = { letters: [], table: new Map(), typed: "" };

  function pickLetter(letters, keys = {}) {
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
  function pickerKey(e) {
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

  function closePicker(letter) {
    $("letter-picker").hidden = true;
    const resolve = pickerResolve;
    pickerResolve = null;
    if (resolve) resolve(letter);
  }

  function pickerOpen() {
    return !$("letter-picker").hidden;
  }

  $("picker-cancel").addEventListener("click", () => closePicker(null));
  $("letter-picker").addEventListener("click", (e) => {
    if (e.target === $("letter-picker")) closePicker(null);
  });

  // ================================================================ options
  let optionsPromise = null;
  function loadOptions() {
    if (!optionsPromise) {
      optionsPromise = api("/api/options").catch((err) => {
        optionsPromise = null;
        throw err;
      });
    }
    return optionsPromise;
  }

  function fillSelect(select, items, selected) {
    clear(select);
    for (const item of items) {
      const value = typeof item === "string" ? item : item.value;
      const label = typeof item === "string" ? item : item.label;
      select.append(h("option", { value, selected: value === selected }, label));
    }
  }

  // The lexicons on offer, each with its alphabet when it is not English.
  function lexiconItems(options) {
    const alphabets = options.lexicon_alphabets || {};
    return (options.lexicons || []).map((l) => ({
      value: l,
      label: alphabets[l] && alphabets[l] !== "english" ? `${l} (${alphabets[l]})` : l,
    }));
  }

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

  // ================================================================ play: setup
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
      const seconds = info.seconds ? h("label", { class: "inline" },
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

  $("btn-add-opponent").addEventListener("click", () => {
    if (setup.opponents.length < 3) {
      setup.opponents.push({ level: setup.opponents[setup.opponents.length - 1].level,
                             seconds: 2 });
      renderOpponents();
    }
  });

  async function showPlaySetup() {
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

  // ================================================================ play: a game
  const game = {
    data: null, // GAME
    order: [], // the rack as shown: indices into data.rack
    placed: [], // tentative tiles: {row, col, idx, letter, blank, points}
    selected: null, // the rack index picked up by a click
    exchange: null, // Set of rack indices while choosing tiles to exchange
    cursor: null, // {row, col, dir} for typing
    hints: null, // MOVEs from the hint endpoint
    preview: null, // a hint hovered in the list
    busy: false,
    justLoaded: false, // set by the new-game form and the import, read by openGame
    pending: "", // typed letters that start a tile of several letters ("N" of NY, "[C")
    animKey: null, // the last play already animated
    animate: new Set(),
    animTimer: null,
  };
  let drag = null; // {src: "rack", idx} or {src: "board", row, col}

  function isRecord() {
    return game.data && game.data.status === "record";
  }
  function canAct() {
    const g = game.data;
    return !!g && g.status === "playing" && !game.busy &&
      (g.human === null || g.human === undefined || g.turn === g.human);
  }

  function alphabetLetters() {
    const g = game.data;
    const source = (g && g.alphabet) || (setup.alphabet) || null;
    if (Array.isArray(source) && source.length) {
      return source.map((x) => (typeof x === "string" ? x : x.letter))
        .filter((l) => l && l !== "?");
    }
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");
  }

  // Keep the player's arrangement of the rack across turns: tiles still on
  // the rack keep their places, new tiles go to the right.
  function rackOrder(oldGame, oldOrder, newRack) {
    const fresh = [...newRack.keys()];
    if (!oldGame || !oldGame.rack) return fresh;
    const used = new Set();
    const order = [];
    for (const i of oldOrder) {
      const old = oldGame.rack[i];
      if (!old) continue;
      const j = newRack.findIndex((t, k) => !used.has(k) && t.letter === old.letter &&
                                            !!t.blank === !!old.blank);
      if (j >= 0) {
        used.add(j);
        order.push(j);
      }
    }
    for (const k of fresh) if (!used.has(k)) order.push(k);
    return order;
  }

  function setGame(g, { fresh = false } = {}) {
    const old = game.data;
    const same = old && old.id === g.id && !fresh;
    game.order = rackOrder(same ? old : null, same ? game.order : [], g.rack || []);
    game.data = g;
    game.placed = [];
    game.selected = null;
    game.exchange = null;
    game.hints = null;
    game.preview = null;
    learnBoard(g.board);
    learnTiles(g.rack);
    // Animate the latest play once, when it is new to this page.
    const lastKey = g.last ? `${g.id}:${(g.events || []).length}:${JSON.stringify(g.last)}`
                           : null;
    game.animate = new Set();
    if (lastKey && game.animKey !== lastKey) {
      if (same) {
        for (const [r, c] of g.last.squares || []) game.animate.add(key(r, c));
      }
      game.animKey = lastKey;
    }
    if (game.cursor && g.board && g.board.squares[game.cursor.row] &&
        g.board.squares[game.cursor.row][game.cursor.col]) {
      game.cursor = null;
    }
    renderGame();
  }

  async function openGame(id) {
    showView("game");
    showError($("play-error"), "");
    if (game.data && String(game.data.id) === String(id)) {
      renderGame();
      if (game.justLoaded) {
        // the game was just created or imported: no need to ask again
        game.justLoaded = false;
        return;
      }
    } else {
      game.data = null;
      game.cursor = null;
      renderGame();
    }
    document.body.dataset.busy = "1";
    try {
      const g = await api(`/api/games/${encodeURIComponent(id)}`);
      if (currentRoute().arg !== String(id)) return;
      setGame(g, { fresh: !(game.data && game.data.id === g.id) });
    } catch (err) {
      showError($("play-error"), err.status === 404 ? `There is no game ${id}.` : err.message);
    } finally {
      document.body.dataset.busy = "0";
    }
  }

  function placedAt(r, c) {
    return game.placed.find((p) => p.row === r && p.col === c);
  }
  function occupied(r, c) {
    const b = game.data.board;
    return !!(b.squares[r] && b.squares[r][c]) || !!placedAt(r, c);
  }
  function isPlaced(idx) {
    return game.placed.some((p) => p.idx === idx);
  }

  async function placeTile(idx, r, c, letter = null) {
    const g = game.data;
    if (!canAct() || occupied(r, c) || isPlaced(idx)) return false;
    const tile = g.rack[idx];
    if (!tile) return false;
    let chosen = tile.letter;
    if (tile.blank) {
      chosen = letter || await pickLetter(alphabetLetters(), (g && g.keys) || {});
      if (!chosen) return false;
      if (occupied(r, c) || isPlaced(idx)) return false;
    }
    game.placed.push({ row: r, col: c, idx, letter: chosen, blank: !!tile.blank,
                       points: tile.blank ? 0 : tile.points });
    game.selected = null;
    showError($("play-error"), "");
    return true;
  }

  function takeBack(r, c) {
    const i = game.placed.findIndex((p) => p.row === r && p.col === c);
    if (i >= 0) game.placed.splice(i, 1);
  }

  function recall() {
    game.placed = [];
    game.selected = null;
    game.preview = null;
  }

  function nextEmpty(r, c, dir, step = 1) {
    const n = game.data.board.size;
    let row = r;
    let col = c;
    do {
      if (dir === "down") row += step;
      else col += step;
    } while (row >= 0 && col >= 0 && row < n && col < n && occupied(row, col));
    if (row < 0 || col < 0 || row >= n || col >= n) return null;
    return { row, col };
  }

  async function onGameSquare(r, c) {
    game.pending = "";
    if (!game.data || isRecord()) return;
    if (placedAt(r, c)) {
      takeBack(r, c);
      game.cursor = null;
      renderGame();
      return;
    }
    if (occupied(r, c) || !canAct()) return;
    if (game.exchange) return;
    if (game.selected !== null) {
      await placeTile(game.selected, r, c);
      game.cursor = null;
      renderGame();
      return;
    }
    // No tile in hand: the square becomes the typing cursor; clicking it
    // again turns the direction.
    if (game.cursor && game.cursor.row === r && game.cursor.col === c) {
      game.cursor.dir = game.cursor.dir === "across" ? "down" : "across";
    } else {
      game.cursor = { row: r, col: c, dir: (game.cursor && game.cursor.dir) || "across" };
    }
    renderGame();
  }

  async function onRackTile(idx) {
    if (!canAct()) return;
    if (game.exchange) {
      if (game.exchange.has(idx)) game.exchange.delete(idx);
      else game.exchange.add(idx);
      renderGame();
      return;
    }
    if (game.cursor && !occupied(game.cursor.row, game.cursor.col)) {
      const { row, col, dir } = game.cursor;
      if (await placeTile(idx, row, col)) {
        const next = nextEmpty(row, col, dir);
        game.cursor = next ? { ...next, dir } : null;
      }
      renderGame();
      return;
    }
    game.selected = game.selected === idx ? null : idx;
    renderGame();
  }

  // Drag and drop (HTML5): rack -> board, board -> board, board -> rack, and
  // within the rack to reorder it.
  function dragStartRack(e, idx) {
    if (!canAct() || game.exchange) {
      e.preventDefault();
      return;
    }
    drag = { src: "rack", idx };
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", `rack:${idx}`);
    e.target.classList.add("dragging");
  }

  function dragStartBoard(e, r, c) {
    drag = { src: "board", row: r, col: c };
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", `board:${r},${c}`);
  }

  function dragEnd() {
    drag = null;
    document.querySelectorAll(".dragging, .drop-target, .drop-before")
      .forEach((n) => n.classList.remove("dragging", "drop-target", "drop-before"));
  }

  async function dropOnSquare(r, c) {
    const d = drag;
    drag = null;
    if (!d || !canAct()) return;
    if (d.src === "rack") {
      await placeTile(d.idx, r, c);
    } else if (d.src === "board") {
      const p = placedAt(d.row, d.col);
      if (p && !occupied(r, c)) {
        p.row = r;
        p.col = c;
      }
    }
    game.cursor = null;
    renderGame();
  }

  function dropOnRack(beforeIdx) {
    const d = drag;
    drag = null;
    if (!d) return;
    let idx = null;
    if (d.src === "rack") idx = d.idx;
    if (d.src === "board") {
      const p = placedAt(d.row, d.col);
      if (p) {
        idx = p.idx;
        takeBack(d.row, d.col);
      }
    }
    if (idx === null) return;
    if (beforeIdx !== idx) {
      const order = game.order.filter((i) => i !== idx);
      const at = beforeIdx === null ? order.length : order.indexOf(beforeIdx);
      order.splice(at < 0 ? order.length : at, 0, idx);
      game.order = order;
    }
    renderGame();
  }

  const rackBox = $("rack");
  rackBox.addEventListener("dragover", (e) => {
    if (drag) e.preventDefault();
  });
  rackBox.addEventListener("drop", (e) => {
    e.preventDefault();
    if (e.target === rackBox) dropOnRack(null);
  });
  document.addEventListener("dragend", dragEnd);

  function shuffle() {
    const a = game.order.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    game.order = a;
    renderGame();
  }

  // ---------------------------------------------------------------- actions
  async function act(path, body, { method = "POST" } = {}) {
    const g = game.data;
    if (!g) return;
    game.busy = true;
    document.body.dataset.busy = "1";
    renderControls();
    const thinking = setTimeout(() => { $("thinking").hidden = false; }, 150);
    showError($("play-error"), "");
    try {
      const next = await api(`/api/games/${g.id}${path}`, { method, body });
      setGame(next);
    } catch (err) {
      showError($("play-error"), err.message);
    } finally {
      clearTimeout(thinking);
      $("thinking").hidden = true;
      game.busy = false;
      renderGame();
      document.body.dataset.busy = "0";
    }
  }

  async function playPlaced() {
    if (!canAct()) return;
    if (!game.placed.length) {
      showError($("play-error"),
        "Put some tiles on the board first: click a rack tile, then a square (or drag it).");
      return;
    }
    const tiles = game.placed.map((p) => ({ row: p.row, col: p.col, letter: p.letter,
                                           blank: p.blank }));
    await act("/play", { tiles });
  }

  async function confirmExchange() {
    if (!game.exchange || !game.exchange.size) {
      showError($("play-error"), "Click the rack tiles you want to exchange first.");
      return;
    }
    const tiles = [...game.exchange].map((i) => rackText(game.data.rack[i].letter)).join("");
    await act("/exchange", { tiles });
  }

  async function showHints() {
    const g = game.data;
    if (!canAct()) return;
    $("btn-hint").disabled = true;
    document.body.dataset.busy = "1";
    try {
      const data = await api(`/api/games/${g.id}/hint?top=5`);
      game.hints = data.moves || [];
      const verdict = data.verdict || {};
      (data.moves || []).forEach((m, i) => {
        if (verdict.moves && verdict.moves[i]) m.value = verdict.moves[i].value;
      });
      $("hint-leaves").textContent = (verdict.valued_by && verdict.valued_by !== "static"
        ? ` · ${verdict.valued_by}: value = spread to the end of the game`
        : (data.leaves ? ` · equity with ${data.leaves}` : "")) +
        (data.adjustment ? ` · ${data.adjustment}` : "");
      showError($("play-error"), "");
    } catch (err) {
      showError($("play-error"), err.message);
    } finally {
      renderGame();
      document.body.dataset.busy = "0";
    }
  }

  // Put a MOVE (a hint) on the board as a tentative placement, or select the
  // tiles of an exchange.
  function applyMove(move) {
    const g = game.data;
    if (!canAct() || !move) return;
    recall();
    game.exchange = null;
    game.cursor = null;
    if (move.kind === "exchange") {
      // The tiles to exchange are the rack minus the leave.
      const leave = rackTiles(move.leave || "").map((t) => t.letter);
      const chosen = new Set();
      g.rack.forEach((t, i) => {
        const j = leave.indexOf(t.letter);
        if (j >= 0) leave.splice(j, 1);
        else chosen.add(i);
      });
      game.exchange = chosen;
    } else if (move.kind === "pass") {
      toast("The hint is to pass.");
    } else {
      const free = new Set(g.rack.keys());
      for (const t of move.tiles || []) {
        const fits = (i) => (t.blank ? g.rack[i].blank
                                     : !g.rack[i].blank && g.rack[i].letter === t.letter);
        const idx = [...free].find(fits);
        if (idx === undefined) continue;
        free.delete(idx);
        game.placed.push({ row: t.row, col: t.col, idx, letter: t.letter, blank: !!t.blank,
                           points: t.blank ? 0 : g.rack[idx].points });
      }
    }
    renderGame();
  }

  $("btn-play").addEventListener("click", playPlaced);
  $("btn-recall").addEventListener("click", () => { recall(); renderGame(); });
  $("btn-shuffle").addEventListener("click", shuffle);
  $("btn-pass").addEventListener("click", () => {
    if (canAct()) act("/pass");
  });
  $("btn-challenge").addEventListener("click", () => {
    if (canAct()) act("/challenge");
  });
  $("btn-undo").addEventListener("click", () => {
    if (game.data && !game.busy) act("/undo");
  });
  $("btn-hint").addEventListener("click", showHints);
  $("btn-exchange").addEventListener("click", () => {
    if (!canAct()) return;
    recall();
    game.cursor = null;
    game.exchange = new Set();
    renderGame();
  });
  $("btn-exchange-confirm").addEventListener("click", confirmExchange);
  $("btn-exchange-cancel").addEventListener("click", () => {
    game.exchange = null;
    renderGame();
  });
  $("btn-record-analyse").addEventListener("click", async () => {
    const g = game.data;
    if (!g) return;
    try {
      const response = await fetch(`/api/games/${g.id}/gcg`);
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      const text = await response.text();
      $("gcg-input").value = text;
      location.hash = "#analyse";
      selectTab("gcg");
      analyseGcg();
    } catch (err) {
      showError($("play-error"), `Could not fetch the record: ${err.message}`);
    }
  });

  // Typing: letters onto the cursor square, Backspace takes the last one back,
  // arrows move the cursor and set the direction, Enter plays, Escape recalls.
  // A tile of several letters: "[" its label "]", or as the game's KEYS say
  // (Catalan N then Y for NY, Spanish 1 for CH): letters that start one wait
  // in game.pending until the next key says which tile it is.
  async function gameKey(e) {
    if (!game.data || isRecord()) return;
    if (game.pending && canAct() && game.cursor && !game.exchange &&
        !(e.ctrlKey || e.metaKey || e.altKey) && await pendingKey(e)) {
      renderGame();
      return;
    }
    if (e.key === "Enter") {
      e.preventDefault();
      game.pending = "";
      playPlaced();
      return;
    }
    if (e.key === "Escape") {
      game.pending = "";
      recall();
      game.exchange = null;
      game.cursor = null;
      renderGame();
      return;
    }
    if (!canAct() || game.exchange) return;
    const arrows = { ArrowRight: ["across", 1], ArrowLeft: ["across", -1],
                     ArrowDown: ["down", 1], ArrowUp: ["down", -1] };
    if (arrows[e.key] && game.cursor) {
      e.preventDefault();
      const [dir, step] = arrows[e.key];
      const n = game.data.board.size;
      const row = game.cursor.row + (dir === "down" ? step : 0);
      const col = game.cursor.col + (dir === "across" ? step : 0);
      if (game.cursor.dir !== dir) {
        game.cursor.dir = dir;
      } else if (row >= 0 && col >= 0 && row < n && col < n) {
        game.cursor = { row, col, dir };
      }
      renderGame();
      return;
    }
    if (e.key === "Backspace") {
      e.preventDefault();
      const last = game.placed.pop();
      if (last) game.cursor = { row: last.row, col: last.col,
                                dir: (game.cursor && game.cursor.dir) || "across" };
      renderGame();
      return;
    }
    if (e.key === " ") {
      e.preventDefault();
      shuffle();
      return;
    }
    if (!game.cursor || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "[") {
      e.preventDefault();
      game.pending = "[";
      renderGame();
      return;
    }
    const k = keyText(e.key, alphabetLetters());
    if (!/^[\p{L}\p{N}·]$/u.test(k)) return;
    e.preventDefault();
    await typeText(k);
    renderGame();
  }

  // A key while letters are pending: true when it was used up here. Enter and
  // the arrows first put down the tile the pending letters are; Backspace takes
  // one back; "]" ends a bracketed label.
  async function pendingKey(e) {
    const p = game.pending;
    if (e.key === "Backspace") {
      e.preventDefault();
      game.pending = p.slice(0, -1);
      return true;
    }
    if (p.startsWith("[")) {
      if (e.key === "]") {
        e.preventDefault();
        game.pending = "";
        const label = p.slice(1).toUpperCase();
        if (alphabetLetters().includes(label)) await typeTile(label);
        else toast(`[${label}] is not a tile of this game.`);
        return true;
      }
      if (e.key.length === 1 && e.key !== "[") {
        e.preventDefault();
        game.pending = p + keyText(e.key, alphabetLetters());
        return true;
      }
      return false;
    }
    if (["Enter", "Tab", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key)) {
      game.pending = "";  // the pending letters are a tile first; then the key does its part
      const found = typedTile(p, gameTable());
      if (found && found.label) await typeTile(found.label);
    }
    return false;
  }

  function gameTable() {
    return typeables(alphabetLetters(), (game.data && game.data.keys) || {});
  }

  // A key typed onto the board: a tile, or the start of one (pending).
  async function typeText(k) {
    const table = gameTable();
    let text = game.pending + k;
    let found = typedTile(text, table);
    if (!found && game.pending) {  // the pending letters are a tile of their own
      const before = typedTile(game.pending, table);
      game.pending = "";
      if (before && before.label && !(await typeTile(before.label))) return;
      text = k;
      found = typedTile(text, table);
    }
    if (!found) {
      game.pending = "";
      toast(`${k.toUpperCase()} is not a tile of this game.`);
      return;
    }
    if (found.prefix) {
      game.pending = text.toUpperCase();
      return;
    }
    game.pending = "";
    await typeTile(found.label);
  }

  // Put the tile LABEL from the rack on the cursor square (a blank standing for
  // it when the rack has none), and move the cursor on.
  async function typeTile(label) {
    if (!game.cursor) return false;
    const rack = game.data.rack;
    const free = game.order.filter((i) => !isPlaced(i));
    let idx = free.find((i) => !rack[i].blank && rack[i].letter === label);
    let blankLetter = null;
    if (idx === undefined) {
      idx = free.find((i) => rack[i].blank);
      blankLetter = label;
    }
    if (idx === undefined) {
      toast(`No ${label} on your rack.`);
      return false;
    }
    const { row, col, dir } = game.cursor;
    if (occupied(row, col)) return false;
    if (await placeTile(idx, row, col, blankLetter)) {
      const next = nextEmpty(row, col, dir);
      game.cursor = next ? { ...next, dir } : null;
      return true;
    }
    return false;
  }

  // ---------------------------------------------------------------- rendering
  function renderGame() {
    const g = game.data;
    const record = isRecord();
    $("controls").hidden = !g || record;
    $("rack").parentElement.hidden = !g || record;
    $("record-card").hidden = !record;
    if (!g) {
      clear($("game-board"));
      clear($("rack"));
      clear($("scoreboard"));
      clear($("events"));
      $("game-title").textContent = "";
      $("bag-count").textContent = "";
      $("result").hidden = true;
      $("unseen-card").hidden = true;
      $("hint-card").hidden = true;
      $("messages").hidden = true;
      $("exchange-bar").hidden = true;
      $("status-line").textContent = "Loading the game…";
      return;
    }
    renderGameBoard();
    renderGameRack();
    renderControls();
    renderScores();
    renderUnseen();
    renderEvents();
    renderHints();
    renderResult();
    renderMessages();
  }

  function renderGameBoard() {
    const g = game.data;
    const record = isRecord();
    const overlay = game.placed.map((p) => ({
      row: p.row, col: p.col, letter: p.letter, blank: p.blank, points: p.points,
      cls: "tentative",
      attrs: { draggable: "true", "data-testid": "placed-tile", title: "Click to take it back" },
    }));
    const marks = new Map();
    if (g.last && g.last.squares) marksOf(g.last.squares, "last", marks);
    if (game.preview && !game.placed.length) {
      const taken = new Set(overlay.map((t) => key(t.row, t.col)));
      for (const t of moveOverlay(game.preview, "preview")) {
        if (!taken.has(key(t.row, t.col))) overlay.push(t);
      }
      marksOf(moveSquares(game.preview), "marked", marks);
    }
    for (const p of game.placed) marks.set(key(p.row, p.col), "pending");
    const grid = renderBoard($("game-board"), g.board, {
      overlay, marks, cursor: canAct() ? game.cursor : null, animate: game.animate,
      onSquare: onGameSquare, onDrop: record ? null : dropOnSquare,
    });
    if (game.animate.size && !game.animTimer) {
      // the arrival animation plays for the first second after a move only
      game.animTimer = setTimeout(() => {
        game.animate = new Set();
        game.animTimer = null;
      }, 1200);
    }
    if (!grid) return;
    grid.querySelectorAll(".tile.tentative").forEach((node) => {
      const sq = node.parentElement;
      const r = Number(sq.dataset.row);
      const c = Number(sq.dataset.col);
      node.addEventListener("dragstart", (e) => dragStartBoard(e, r, c));
    });
    grid.classList.toggle("selecting", game.selected !== null);
  }

  function renderGameRack() {
    const g = game.data;
    const box = clear($("rack"));
    for (const idx of game.order) {
      const t = g.rack[idx];
      if (!t || isPlaced(idx)) continue;
      const cls = ["rack-tile"];
      if (game.selected === idx) cls.push("selected");
      if (game.exchange && game.exchange.has(idx)) cls.push("to-exchange");
      const node = tileNode(t, cls.join(" "), {
        "data-testid": "rack-tile", "data-index": idx, "data-letter": t.letter,
        draggable: canAct() && !game.exchange ? "true" : "false",
        title: t.blank ? "A blank: you choose its letter when you place it" : null,
      });
      node.addEventListener("click", () => onRackTile(idx));
      node.addEventListener("dragstart", (e) => dragStartRack(e, idx));
      node.addEventListener("dragover", (e) => {
        if (drag) {
          e.preventDefault();
          node.classList.add("drop-before");
        }
      });
      node.addEventListener("dragleave", () => node.classList.remove("drop-before"));
      node.addEventListener("drop", (e) => {
        e.preventDefault();
        e.stopPropagation();
        dropOnRack(idx);
      });
      box.append(node);
    }
    box.classList.toggle("exchanging", !!game.exchange);
  }

  function renderControls() {
    const g = game.data;
    if (!g) return;
    const can = canAct();
    const ex = !!game.exchange;
    $("btn-play").disabled = !can || ex;
    $("btn-recall").disabled = !can || ex || !game.placed.length;
    $("btn-exchange").disabled = !can || ex || g.can_exchange === false;
    $("btn-pass").disabled = !can || ex;
    $("btn-challenge").disabled = !can || ex || !g.can_challenge;
    $("btn-hint").disabled = !can || ex;
    $("btn-undo").disabled = game.busy || g.status !== "playing" ||
      !(g.events || []).some((e) => e.seat === g.human);
    $("btn-shuffle").disabled = game.busy;
    $("exchange-bar").hidden = !ex;
    $("controls").hidden = ex || isRecord();
    $("btn-exchange-confirm").disabled = !ex || !game.exchange.size || game.busy;
    const link = $("btn-gcg");
    link.href = `/api/games/${g.id}/gcg`;
    link.setAttribute("download", `game-${g.id}.gcg`);
    $("btn-report").href = `/api/games/${g.id}/report`;
    let status;
    if (g.status === "record") status = "An imported game record.";
    else if (g.status === "over") status = "The game is over.";
    else if (game.busy) status = "Waiting for the computer…";
    else if (ex) status = "Choose the tiles to exchange.";
    else if (game.selected !== null) status = "Now click a square to put the tile there.";
    else if (game.pending) {
      const found = game.pending.startsWith("[") ? null : typedTile(game.pending, gameTable());
      status = found && found.prefix
        ? `Typed ${game.pending}: type on for ${found.prefix.join(", ")}` +
          `${found.label ? `, or another letter for ${found.label}` : ""}.`
        : `Typed ${game.pending}: the tile's label, then ].`;
    } else if (game.cursor) status = "Type letters to place tiles; Enter plays.";
    else status = `Your move${g.bag !== undefined ? `: ${g.bag} tiles in the bag` : ""}.`;
    $("status-line").textContent = status;
  }

  function renderScores() {
    const g = game.data;
    $("game-title").textContent = `Game ${g.id} · ${g.lexicon || ""}`;
    $("bag-count").textContent = `${g.bag ?? "?"} in the bag`;
    $("bag-count").dataset.bag = g.bag ?? "";
    const table = clear($("scoreboard"));
    for (const p of g.players || []) {
      const toMove = g.status === "playing" && g.turn === p.seat;
      table.append(h("tr", {
        class: `${toMove ? "to-move" : ""} ${p.seat === g.human ? "human" : ""}`,
        "data-testid": "score-row", "data-seat": p.seat,
      },
      h("td", { class: "turn-dot" }, toMove ? "●" : ""),
      h("td", { class: "name" }, p.name,
        p.kind === "computer" && p.level ? h("span", { class: "level" }, p.level) : null),
      h("td", { class: "score", "data-testid": `score-${p.seat}` }, p.score)));
    }
  }

  // The tiles the person has not seen, by letter (the game's "unseen": their own
  // rack known, never a computer's), with their count and the bag/rack split.
  function renderUnseen() {
    const u = game.data.unseen;
    $("unseen-card").hidden = !u || !u.count;
    if (!u) return;
    $("unseen-count").textContent = `(${u.count})`;
    $("unseen-card").title = u.text;
    const box = clear($("unseen-tiles"));
    for (const [letter, count] of Object.entries(u.tiles)) {
      box.append(h("span", { class: "unseen-group", "data-letter": letter,
                             title: `${count} × ${letter}` }, letter.repeat(count)), " ");
    }
  }

  const EVENT_TEXT = {
    exchange: (e) => e.move || "exchange",
    pass: () => "pass",
    withdrawn: (e) => `${e.move || ""} (withdrawn)`,
    challenge_bonus: () => "challenge bonus",
    lost_turn: () => "lost challenge",
    end_points: () => "out: the others' tiles",
    end_penalty: (e) => (e.rack ? `${e.rack} left on the rack` : "tiles left on the rack"),
  };

  function renderEvents() {
    const g = game.data;
    const table = clear($("events"));
    const events = g.events || [];
    const over = g.status !== "playing";
    events.forEach((e, i) => {
      const text = EVENT_TEXT[e.kind] ? EVENT_TEXT[e.kind](e) : (e.move || e.kind);
      const showRack = over || e.seat === g.human;
      table.append(h("tr", {
        class: `ev-${e.kind} ${i === events.length - 1 ? "latest" : ""}`,
        "data-testid": "event-row", "data-kind": e.kind,
      },
      h("td", { class: "who" }, e.player),
      h("td", { class: "rack-text" }, showRack ? (e.rack || "") : ""),
      h("td", { class: "mv" }, text),
      h("td", { class: "num" }, e.score === null || e.score === undefined ? "" : signed(e.score)),
      h("td", { class: "num total" }, e.total ?? "")));
    });
    const scroller = table.parentElement;
    scroller.scrollTop = scroller.scrollHeight;
  }

  function renderHints() {
    const card = $("hint-card");
    const table = clear($("hint-table"));
    if (!game.hints || !canAct()) {
      card.hidden = true;
      return;
    }
    card.hidden = false;
    table.append(h("tr", {}, h("th", {}, "Move"), h("th", {}, "Score"), h("th", {}, "Leave"),
                   h("th", {}, "Equity")));
    if (!game.hints.length) {
      table.append(h("tr", {}, h("td", { colspan: 4, class: "muted" }, "No moves.")));
    }
    for (const m of game.hints) {
      const exchangeTiles = m.kind === "exchange" ? exchangeLetters(m) : "";
      const row = h("tr", {
        class: "move-row", "data-testid": "hint-row", "data-move": m.move,
        "data-kind": m.kind || "place", "data-tiles": JSON.stringify(m.tiles || []),
        "data-exchange": exchangeTiles,
        onclick: () => applyMove(m),
        onmouseenter: () => { game.preview = m; renderGameBoard(); },
        onmouseleave: () => { game.preview = null; renderGameBoard(); },
      },
      h("td", { class: "mv" }, m.move), h("td", { class: "num" }, m.score),
      h("td", { class: "rack-text" }, m.leave), h("td", { class: "num" }, fmt(m.value ?? m.equity)));
      table.append(row);
    }
  }

  // The tiles an exchange hint gives back: the rack minus its leave.
  function exchangeLetters(move) {
    const leave = rackTiles(move.leave || "").map((t) => t.letter);
    const out = [];
    for (const t of game.data.rack) {
      const j = leave.indexOf(t.letter);
      if (j >= 0) leave.splice(j, 1);
      else out.push(rackText(t.letter));
    }
    return out.join("");
  }

  function renderResult() {
    const g = game.data;
    const box = clear($("result"));
    if (!g.result || g.status === "playing") {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const winners = g.result.winners || [];
    const me = (g.players || []).find((p) => p.seat === g.human);
    let headline = "Game over";
    if (winners.length > 1) headline = `A tie: ${winners.join(" and ")}`;
    else if (winners.length && me && winners[0] === me.name) headline = "You win!";
    else if (winners.length) headline = `${winners[0]} wins`;
    box.append(h("h3", {}, "Final result"),
      h("p", { class: "winner", "data-testid": "winner" }, headline));
    const table = h("table", { class: "list standings" },
      h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Score"),
        h("th", {}, "Rating")));
    for (const s of g.result.standings || []) {
      table.append(h("tr", { "data-testid": "standing-row", "data-seat": s.seat,
                             "data-score": s.score },
        h("td", {}, s.rank), h("td", {}, s.name),
        h("td", { class: "num", "data-testid": `final-score-${s.seat}` }, s.score),
        h("td", { class: "num" }, ratingChange(s.rating_before, s.rating_after))));
    }
    box.append(table);
  }

  function ratingChange(before, after) {
    if (after === null || after === undefined) return "";
    if (before === null || before === undefined) return fmt(after, 0);
    const delta = Number(after) - Number(before);
    return h("span", {}, `${fmt(before, 0)} → ${fmt(after, 0)} `,
      h("span", { class: delta >= 0 ? "up" : "down" }, `(${signed(delta, 0)})`));
  }

  function renderMessages() {
    const g = game.data;
    const box = clear($("messages"));
    const messages = g.messages || [];
    box.hidden = !messages.length;
    for (const m of messages) box.append(h("div", { "data-testid": "message" }, m));
  }

  // ================================================================ analyse: position
  const pos = {
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
    options: "", // the CGP's operations, kept as they were
    zeroTurns: "0",
    pending: "", // letters typed after '[' for a multi-letter tile
    refresh: null,
    initialised: false,
  };

  const EMPTY_CGP = `${Array(15).fill("15").join("/")} / 0/0 0`;
  // the example the position form shows (its placeholder): Analyse on the untouched
  // form analyses it
  const EXAMPLE_CGP = $("cgp-input").getAttribute("placeholder") ||
    `${Array(15).fill("15").join("/")} AADNPUY/ 0/0 0`;

  // whether the board editor still holds the empty board it started with
  function editorUntouched() {
    const empty = !pos.grid || pos.grid.every((row) => row.every((t) => !t));
    return empty && !$("edit-rack").value.trim() && !$("edit-rack2").value.trim();
  }

  function lexiconChoice(select) {
    return select.value || null;
  }

  // A CGP for the lexicon chosen: one in another alphabet than English (Spanish,
  // Catalan ...) reads the position in it, unless the CGP names one (ld).
  let lexiconAlphabets = {};
  function withLexiconAlphabet(cgp) {
    const alphabet = lexiconAlphabets[$("analyse-lexicon").value];
    const parts = cgpParts(cgp);
    if (!alphabet || alphabet === "english" || !parts) return cgp;
    if (/(^|;)\s*ld\s/.test(parts.options)) return cgp;
    return `${cgp.trim()} ld ${alphabet};`;
  }

  async function fillLexiconSelects() {
    try {
      const options = await loadOptions();
      lexiconAlphabets = options.lexicon_alphabets || {};
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

  async function showAnalyse() {
    await fillLexiconSelects();
    if (!pos.initialised) {
      pos.initialised = true;
      try {
        const p = await api("/api/position", { method: "POST", body: { cgp: EMPTY_CGP } });
        if (!pos.board) loadPosition(p.board, p.racks, p.scores, p.cgp || EMPTY_CGP);
      } catch (err) {
        // an empty board is a nicety; the textarea still works
      }
    }
    renderPosition();
    renderGcg();
  }

  function cgpParts(cgp) {
    const m = /^\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*(.*)$/.exec(cgp || "");
    if (!m) return null;
    return { rows: m[1], racks: m[2], scores: m[3], zero: m[4], options: m[5].trim() };
  }

  // The editor takes the board, racks and scores of a position from the server.
  function loadPosition(board, racks, scores, cgp) {
    pos.board = board;
    learnBoard(board);
    pos.racks = (racks || []).map(rackTiles);
    pos.racks.forEach(learnTiles);
    pos.grid = board.squares.map((row) => row.map((t) => (t ? { ...t } : null)));
    const parts = cgpParts(cgp);
    if (parts) {
      pos.zeroTurns = parts.zero;
      pos.options = parts.options;
    }
    const asText = (tiles) => tiles.map((t) => rackText(t.letter)).join("");
    $("edit-rack").value = asText(pos.racks[0] || []);
    $("edit-rack2").value = asText(pos.racks[1] || []);
    $("edit-score1").value = (scores && scores[0]) || 0;
    $("edit-score2").value = (scores && scores[1]) || 0;
  }

  // CGP from the editor: rows with runs of empty squares as numbers, blanks in
  // lower case, multi-letter tiles in brackets; racks, scores, zero turns and
  // the original operations.
  function buildCgp() {
    const rows = pos.grid.map((row) => {
      let out = "";
      let run = 0;
      for (const t of row) {
        if (!t) {
          run += 1;
          continue;
        }
        if (run) out += String(run);
        run = 0;
        let label = t.letter;
        if (t.blank) label = label.toLowerCase();
        out += label.length > 1 ? `[${label}]` : label;
      }
      if (run) out += String(run);
      return out;
    });
    const clean = (s) => s.replace(/\s+/g, "").toUpperCase();
    const rack1 = clean($("edit-rack").value);
    const rack2 = clean($("edit-rack2").value);
    const s1 = parseInt($("edit-score1").value, 10) || 0;
    const s2 = parseInt($("edit-score2").value, 10) || 0;
    let cgp = `${rows.join("/")} ${rack1}/${rack2} ${s1}/${s2} ${pos.zeroTurns || "0"}`;
    if (pos.options) cgp += ` ${pos.options}`;
    return withLexiconAlphabet(cgp);
  }

  function editorBoard() {
    // the position's BOARD with the editor's grid in place of its squares
    const squares = pos.grid.map((row) => row.map((t) => {
      if (!t) return null;
      return { letter: t.letter, blank: !!t.blank,
               points: t.blank ? 0 : (t.points ?? knownPoints.get(t.letter)) };
    }));
    return { ...pos.board, squares };
  }

  function editorChanged() {
    $("cgp-input").value = buildCgp();
    pos.moves = [];
    pos.pinned = null;
    pos.hover = null;
    pos.sim = null;
    pos.racks = [rackTiles($("edit-rack").value.toUpperCase())];
    renderPosition();
    // Ask the server for the position as it now stands, for the tile points
    // and to say at once what is wrong with it.
    clearTimeout(pos.refresh);
    pos.refresh = setTimeout(async () => {
      try {
        const p = await api("/api/position", { method: "POST", body: { cgp: buildCgp() } });
        learnBoard(p.board);
        (p.racks || []).forEach((r) => learnTiles(rackTiles(r)));
        showError($("analyse-error"), "");
        renderPosition();
      } catch (err) {
        showError($("analyse-error"), err.message);
      }
    }, 350);
  }

  async function analysePosition() {
    showError($("analyse-error"), "");
    let cgp = withLexiconAlphabet($("cgp-input").value.trim());
    if (!cgp && (pos.grid || editorUntouched())) {
      // nothing pasted: the example the form shows, or the board being edited
      cgp = editorUntouched() ? EXAMPLE_CGP : buildCgp();
      $("cgp-input").value = cgp;
    }
    if (!cgp) {
      showError($("analyse-error"), "Paste a position in CGP first, or edit the board.");
      return;
    }
    const button = $("btn-analyze");
    button.disabled = true;
    try {
      const top = Math.max(1, Math.min(100, parseInt($("analyse-top").value, 10) || 15));
      const data = await api("/api/analyze", { method: "POST", body: {
        cgp, lexicon: lexiconChoice($("analyse-lexicon")), top, detail: true } });
      if (data.board) loadPosition(data.board, data.racks, data.scores, cgp);
      pos.moves = data.moves || [];
      pos.count = data.count;
      pos.leaves = data.leaves || null;
      pos.adjustment = data.adjustment || null;
      pos.pinned = pos.moves[0] || null;
      pos.hover = null;
      pos.sim = null;
      renderPosition();
    } catch (err) {
      showError($("analyse-error"), err.message);
    } finally {
      button.disabled = false;
    }
  }

  async function simulate() {
    showError($("analyse-error"), "");
    const cgp = withLexiconAlphabet($("cgp-input").value.trim());
    if (!cgp) return;
    const seconds = Math.max(0.1, Math.min(60, Number($("sim-seconds").value) || 2));
    const candidates = Math.max(2, Math.min(30, parseInt($("sim-candidates").value, 10) || 8));
    const button = $("btn-simulate");
    button.disabled = true;
    const started = Date.now();
    const tick = setInterval(() => {
      button.textContent = `Simulating… ${((Date.now() - started) / 1000).toFixed(0)} s`;
    }, 250);
    try {
      const data = await api("/api/simulate", { method: "POST", body: {
        cgp, lexicon: lexiconChoice($("analyse-lexicon")), candidates, seconds, plies: 2 } });
      pos.sim = data;
      if (data.moves && data.moves.length) pos.pinned = data.moves[0];
      renderPosition();
      $("sim-card").scrollIntoView({ block: "nearest", behavior: "smooth" });
    } catch (err) {
      showError($("analyse-error"), err.message);
    } finally {
      clearInterval(tick);
      button.disabled = false;
      button.textContent = "Simulate";
    }
  }

  function renderPosition() {
    const board = pos.grid ? editorBoard() : pos.board;
    const shown = pos.hover || pos.pinned;
    const marks = new Map();
    let overlay = [];
    if (shown && !pos.edit) {
      overlay = moveOverlay(shown, pos.hover ? "preview" : "chosen");
      marksOf(moveSquares(shown), "marked", marks);
    }
    renderBoard($("analysis-board"), board, {
      overlay, marks, cursor: pos.edit ? pos.cursor : null,
      onSquare: (r, c) => {
        if (!pos.edit) return;
        if (pos.cursor && pos.cursor.row === r && pos.cursor.col === c) {
          pos.cursor.dir = pos.cursor.dir === "across" ? "down" : "across";
        } else {
          pos.cursor = { row: r, col: c, dir: (pos.cursor && pos.cursor.dir) || "across" };
        }
        pos.pending = "";
        renderPosition();
      },
    });
    $("analysis-board").classList.toggle("editing", pos.edit);
    renderShownMove();
    const rack = pos.racks[0] || [];
    renderRack($("analysis-rack"), rack);
    $("edit-fields").hidden = !pos.edit;
    $("edit-help").hidden = !pos.edit;
    renderMoveTable();
    renderSimTable();
  }

  function moveRow(m, i, cells, testid) {
    const active = pos.pinned === m;
    return h("tr", {
      class: `move-row ${active ? "pinned" : ""} ${i === 0 ? "top" : ""}`,
      "data-testid": testid, "data-index": i, "data-move": m.move,
      onmouseenter: () => { pos.hover = m; renderPositionBoardOnly(); },
      onmouseleave: () => { pos.hover = null; renderPositionBoardOnly(); },
      onclick: () => { pos.pinned = m; pos.hover = null; renderPosition(); },
    }, cells);
  }

  // Hovering redraws the board only, so the table under the mouse stays put.
  function renderPositionBoardOnly() {
    const board = pos.grid ? editorBoard() : pos.board;
    const shown = pos.hover || pos.pinned;
    const marks = new Map();
    const overlay = shown && !pos.edit ? moveOverlay(shown, pos.hover ? "preview" : "chosen")
                                       : [];
    if (shown && !pos.edit) marksOf(moveSquares(shown), "marked", marks);
    renderBoard($("analysis-board"), board, { overlay, marks });
    renderShownMove();
  }

  function renderShownMove() {
    const shown = pos.edit ? null : (pos.hover || pos.pinned);
    $("shown-move").textContent = shown
      ? `On the board: ${shown.move} · ${shown.score} points · equity ${fmt(shown.equity)}`
      : "";
  }

  function renderMoveTable() {
    const card = $("moves-card");
    const table = clear($("moves-table"));
    if (!pos.moves.length) {
      card.hidden = true;
      return;
    }
    card.hidden = false;
    const counted = pos.count !== null && pos.count !== undefined
      ? `${pos.count} legal placements` : "";
    // which leave values the equity adds to the score (the API says)
    const leaves = pos.leaves && pos.leaves !== "none" ? `leave values: ${pos.leaves}` : "";
    // the judge's word where a search decides (the endgame, the pre-endgame)
    const verdict = pos.verdict || { moves: [] };
    const best = verdict.moves && verdict.moves[0];
    const judged = verdict.valued_by && verdict.valued_by !== "static" && best
      ? `${verdict.valued_by}: best ${best.move} (${verdict.unit === "spread"
        ? `${best.value >= 0 ? "+" : ""}${fmt(best.value)} to the end of the game`
        : fmt(best.value)}, ${fmt(best.win_pct)} % wins)` : "";
    $("moves-count").textContent = [counted, leaves, judged, pos.adjustment]
      .filter(Boolean).join(" · ");
    table.append(h("tr", {}, h("th", {}, "#"), h("th", {}, "Move"), h("th", {}, "Score"),
      h("th", {}, "Leave"), h("th", {}, "Equity")));
    pos.moves.forEach((m, i) => table.append(moveRow(m, i, [
      h("td", { class: "rank" }, i + 1), h("td", { class: "mv" }, m.move),
      h("td", { class: "num" }, m.score), h("td", { class: "rack-text" }, m.leave ?? ""),
      h("td", { class: "num eq" }, fmt(m.equity))], "move-row")));
  }

  function renderSimTable() {
    const card = $("sim-card");
    const table = clear($("sim-table"));
    if (!pos.sim) {
      card.hidden = true;
      return;
    }
    card.hidden = false;
    $("sim-info").textContent = `${pos.sim.iterations ?? ""} iterations`;
    table.append(h("tr", {}, h("th", {}, "#"), h("th", {}, "Move"), h("th", {}, "Score"),
      h("th", {}, "Win %"), h("th", {}, "Equity"), h("th", {}, "Static"), h("th", {}, "Iter.")));
    (pos.sim.moves || []).forEach((m, i) => table.append(moveRow(m, i, [
      h("td", { class: "rank" }, i + 1), h("td", { class: "mv" }, m.move),
      h("td", { class: "num" }, m.score),
      h("td", { class: "num", "data-testid": "win-pct" }, fmt(m.win_pct)
        + (m.win_pct_stderr ? ` ±${fmt(m.win_pct_stderr)}` : "")),
      h("td", { class: "num eq" }, fmt(m.equity)
        + (m.stderr ? ` ±${fmt(m.stderr)}` : "")),
      h("td", { class: "num muted" }, fmt(m.static_equity)),
      h("td", { class: "num muted", "data-testid": "iterations" }, m.iterations ?? "")],
    "sim-row")));
  }

  async function setEditing(on) {
    pos.edit = on;
    $("edit-toggle").checked = on;
    if (on && !pos.board) {
      try {
        const p = await api("/api/position", { method: "POST", body: { cgp: EMPTY_CGP } });
        loadPosition(p.board, p.racks, p.scores, EMPTY_CGP);
      } catch (err) {
        showError($("analyse-error"), err.message);
      }
    }
    if (on && !pos.cursor && pos.board) {
      pos.cursor = { row: pos.board.start[0], col: pos.board.start[1], dir: "across" };
    }
    renderPosition();
  }

  function editorKey(e) {
    if (!pos.edit || !pos.cursor || !pos.grid) return;
    const n = pos.grid.length;
    const { row, col, dir } = pos.cursor;
    const advance = (step) => {
      const r = row + (dir === "down" ? step : 0);
      const c = col + (dir === "across" ? step : 0);
      if (r >= 0 && c >= 0 && r < n && c < n) pos.cursor = { row: r, col: c, dir };
    };
    const arrows = { ArrowRight: ["across", 0, 1], ArrowLeft: ["across", 0, -1],
                     ArrowDown: ["down", 1, 0], ArrowUp: ["down", -1, 0] };
    if (arrows[e.key]) {
      e.preventDefault();
      const [d, dr, dc] = arrows[e.key];
      const r = row + dr;
      const c = col + dc;
      pos.cursor = r >= 0 && c >= 0 && r < n && c < n ? { row: r, col: c, dir: d }
                                                     : { row, col, dir: d };
      renderPosition();
      return;
    }
    if (e.key === "Backspace") {
      e.preventDefault();
      if (!pos.grid[row][col]) {
        advance(-1);
      }
      pos.grid[pos.cursor.row][pos.cursor.col] = null;
      editorChanged();
      return;
    }
    if (e.key === " " || e.key === "Delete") {
      e.preventDefault();
      pos.grid[row][col] = null;
      if (e.key === " ") advance(1);
      editorChanged();
      return;
    }
    if (e.key === "[") {
      e.preventDefault();
      pos.pending = "[";
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (pos.pending) {
      e.preventDefault();
      if (e.key === "]") {
        const label = pos.pending.slice(1).toUpperCase();
        pos.pending = "";
        if (label) {
          pos.grid[row][col] = { letter: label, blank: e.shiftKey };
          advance(1);
          editorChanged();
        }
      } else if (e.key.length === 1) {
        pos.pending += e.key;
      }
      return;
    }
    if (!/^\p{L}$/u.test(e.key)) return;
    e.preventDefault();
    pos.grid[row][col] = { letter: e.key.toUpperCase(), blank: e.shiftKey };
    advance(1);
    editorChanged();
  }

  $("btn-analyze").addEventListener("click", analysePosition);
  $("analyse-lexicon").addEventListener("change", () => {
    if (pos.edit && pos.grid) editorChanged();  // the editor's CGP in the lexicon's alphabet
  });
  $("btn-simulate").addEventListener("click", simulate);
  $("edit-toggle").addEventListener("change", (e) => setEditing(e.target.checked));
  $("btn-edit-clear").addEventListener("click", () => {
    if (!pos.grid) return;
    pos.grid = pos.grid.map((row) => row.map(() => null));
    editorChanged();
  });
  for (const id of ["edit-rack", "edit-rack2", "edit-score1", "edit-score2"]) {
    $(id).addEventListener("input", () => { if (pos.grid) editorChanged(); });
  }
  $("cgp-input").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      analysePosition();
    }
  });

  // ================================================================ analyse: GCG
  const gcg = { data: null, index: 0, show: "played", text: "", lexicon: null };

  async function analyseGcg() {
    showError($("gcg-error"), "");
    const text = $("gcg-input").value;
    if (!text.trim()) {
      showError($("gcg-error"), "Choose a GCG file or paste one first.");
      return;
    }
    const button = $("btn-gcg-analyze");
    button.disabled = true;
    button.textContent = "Analysing…";
    try {
      // a search: the turns assessed so far while it runs (the endgames and
      // pre-endgames are solved, a few seconds each), then the analysis
      let state = await api("/api/gcg/analysis", { method: "POST", body: {
        gcg: text, lexicon: lexiconChoice($("gcg-lexicon")) } });
      while (state.status === "running") {
        const p = state.progress || {};
        button.textContent = p.total ? `Analysing… ${p.done} of ${p.total} ${p.what}`
          : `Analysing… ${p.what || ""}`;
        await new Promise((resolve) => setTimeout(resolve, 400));
        state = await api(`/api/searches/${state.id}`);
      }
      if (state.status === "failed" || !state.result) {
        throw new Error(state.error || "the analysis did not finish");
      }
      const data = state.result;
      gcg.data = data;
      gcg.text = text; // what the endgame of a turn is asked for
      gcg.lexicon = lexiconChoice($("gcg-lexicon"));
      gcg.index = 0;
      gcg.show = "played";
      for (const t of data.turns || []) learnBoard(t.board);
      renderGcg();
    } catch (err) {
      showError($("gcg-error"), err.message);
    } finally {
      button.disabled = false;
      button.textContent = "Analyse the game";
    }
  }

  function gcgGo(index) {
    if (!gcg.data) return;
    const last = (gcg.data.turns || []).length; // == the final position
    gcg.index = Math.max(0, Math.min(last, index));
    renderGcg();
    const item = document.querySelector(`[data-testid="turn-item"][data-index="${gcg.index}"]`);
    if (item) item.scrollIntoView({ block: "nearest" });
  }

  function describeMove(m) {
    if (!m) return "—";
    const eq = m.equity !== undefined && m.equity !== null ? `, equity ${fmt(m.equity)}` : "";
    return `${m.move} (${m.score}${eq})`;
  }

  // A turn as written in the record when the engine has no move for it (a
  // phony, a challenge, the end of the game).
  function turnText(t) {
    if (t.played) return t.played.move;
    const kind = String(t.kind || "").replace(/_/g, " ");
    if (t.written && t.kind === "play") return t.written;
    if (t.written) return `${kind}: ${t.written}`;
    return kind;
  }

  function renderGcg() {
    const data = gcg.data;
    const has = !!data;
    $("gcg-nav").hidden = !has;
    $("turn-info").hidden = !has;
    $("turns-card").hidden = !has;
    $("gcg-summary-card").hidden = !has;
    if (!has) {
      clear($("gcg-board"));
      clear($("gcg-rack"));
      return;
    }
    const turns = data.turns || [];
    const final = gcg.index >= turns.length;
    const turn = final ? null : turns[gcg.index];
    // the board
    const board = final ? data.final && data.final.board : turn.board;
    const move = turn ? (gcg.show === "best" ? turn.best : turn.played) : null;
    const marks = new Map();
    const overlay = moveOverlay(move, gcg.show === "best" ? "best" : "played");
    marksOf(moveSquares(move), gcg.show === "best" ? "marked best" : "marked played", marks);
    renderBoard($("gcg-board"), board, { overlay, marks });
    renderRack($("gcg-rack"), rackTiles(turn ? turn.rack : ""));
    $("turn-counter").textContent = final ? `final position` :
      `turn ${gcg.index + 1} of ${turns.length}`;
    $("btn-prev").disabled = gcg.index <= 0;
    $("btn-next").disabled = final;
    $("btn-show-played").classList.toggle("active", gcg.show === "played");
    $("btn-show-best").classList.toggle("active", gcg.show === "best");
    $("btn-turn-position").disabled = final || !turn.cgp;
    $("btn-turn-endgame").disabled = final;
    $("btn-turn-preendgame").disabled = final;
    // the turn
    const info = clear($("turn-info"));
    if (final) {
      const scores = (data.final && data.final.scores) || [];
      info.append(h("h3", {}, "Final position"),
        h("p", {}, (data.players || []).map((p, i) => `${p} ${scores[i] ?? ""}`).join(" · ")));
    } else {
      const lost = turn.equity_lost;
      info.append(
        h("h3", {}, `${turn.player}`, h("span", { class: "muted" }, ` · ${turn.kind}`)),
        h("dl", { class: "turn-facts" },
          h("dt", {}, "Rack"), h("dd", { class: "rack-text" }, turn.rack || "—"),
          h("dt", {}, "Played"), h("dd", { "data-testid": "turn-played" },
            turn.played ? describeMove(turn.played) : turnText(turn)),
          h("dt", {}, "Best"), h("dd", { "data-testid": "turn-best" }, describeMove(turn.best)),
          h("dt", {}, turn.unit === "spread" ? "Points lost" : "Equity lost"), h("dd", {
            "data-testid": "turn-lost", "data-value": lost ?? "",
            class: lost > 0.05 ? "lost" : "ok",
          }, lost === null || lost === undefined ? "—" : fmt(lost)),
          h("dt", {}, "Win % lost"), h("dd", { "data-testid": "turn-win-lost" },
            turn.win_pct_lost === null || turn.win_pct_lost === undefined ? "—"
              : `${fmt(turn.win_pct_lost)}${turn.mistake && turn.mistake !== "none"
                ? ` · ${turn.mistake} mistake` : ""}`),
          h("dt", {}, "Valued by"), h("dd", { "data-testid": "turn-valued-by" },
            turn.valued_by || (turn.why_not ? `not assessed: ${turn.why_not}` : "—"))));
    }
    // the list of turns
    const list = clear($("turn-list"));
    list.append(h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Move"),
      h("th", {}, "Best"), h("th", {}, "Lost")));
    turns.forEach((t, i) => {
      const lost = t.equity_lost;
      list.append(h("tr", {
        class: `turn-row ${i === gcg.index ? "current" : ""} ${
          t.mistake === "medium" || t.mistake === "large" ? "blunder" : ""}`,
        "data-testid": "turn-item", "data-index": i, onclick: () => gcgGo(i),
      },
      h("td", { class: "rank" }, i + 1), h("td", { class: "who" }, t.player),
      h("td", { class: "mv" }, turnText(t)),
      h("td", { class: "mv muted" }, t.best ? t.best.move : ""),
      h("td", { class: "num" }, lost === null || lost === undefined ? "" : fmt(lost))));
    });
    list.append(h("tr", {
      class: `turn-row ${final ? "current" : ""}`, "data-testid": "turn-item",
      "data-index": turns.length, onclick: () => gcgGo(turns.length),
    }, h("td", {}, ""), h("td", { colspan: 4 }, "final position")));
    // the summary
    const summary = clear($("gcg-summary"));
    summary.append(h("tr", {}, h("th", {}, "Player"), h("th", {}, "Turns"),
      h("th", {}, "Equity lost"), h("th", {}, "Per turn"), h("th", {}, "Win % lost"),
      h("th", {}, "Mistake Index")));
    for (const s of data.summary || []) {
      summary.append(h("tr", { "data-testid": "summary-row" },
        h("td", {}, s.player), h("td", { class: "num" }, s.turns),
        h("td", { class: "num" }, fmt(s.equity_lost)),
        h("td", { class: "num" }, s.turns ? fmt(s.equity_lost / s.turns, 2) : ""),
        h("td", { class: "num" }, fmt(s.win_pct_lost)),
        h("td", { class: "num", "data-testid": "mistake-index" }, fmt(s.mistake_index))));
    }
  }

  $("btn-gcg-analyze").addEventListener("click", analyseGcg);
  $("btn-prev").addEventListener("click", () => gcgGo(gcg.index - 1));
  $("btn-next").addEventListener("click", () => gcgGo(gcg.index + 1));
  $("btn-show-played").addEventListener("click", () => { gcg.show = "played"; renderGcg(); });
  $("btn-show-best").addEventListener("click", () => { gcg.show = "best"; renderGcg(); });
  $("btn-turn-position").addEventListener("click", () => {
    const turn = gcg.data && gcg.data.turns[gcg.index];
    if (!turn || !turn.cgp) return;
    $("cgp-input").value = turn.cgp;
    selectTab("position");
    analysePosition();
  });
  $("gcg-file").addEventListener("change", async (e) => {
    try {
      const text = await readFileText(e.target);
      if (text !== null) {
        $("gcg-input").value = text;
        analyseGcg();
      }
    } catch (err) {
      showError($("gcg-error"), err.message);
    }
  });

  // ================================================================ endgame, pre-endgame
  // The search runs on the server (POST /api/endgame or /api/preendgame, the
  // position as CGP or a record and its turn); the view polls its state until
  // it ends, and its Stop button stops it with the best found so far.
  const eg = { kind: null, request: null, state: null, timer: null, shown: 0 };

  async function startSearch(kind, request, errorBox) {
    showError(errorBox, "");
    showError($("eg-error"), "");
    const old = eg.state;
    if (old && old.status === "running") {
      api(`/api/searches/${old.id}/stop`, { method: "POST" }).catch(() => {});
    }
    const seconds = Math.max(0.1, Math.min(60, Number($("eg-seconds").value) || 5));
    const body = { ...request, seconds };
    if (kind === "preendgame") {
      body.candidates = Math.max(1, Math.min(30, parseInt($("eg-candidates").value, 10) || 10));
    }
    try {
      const state = await api(`/api/${kind}`, { method: "POST", body });
      Object.assign(eg, { kind, request, state, shown: 0 });
      learnBoard(state.position.board);
      if (currentRoute().name !== "endgame") location.hash = "#endgame";
      else renderEndgame();
      pollSearch();
    } catch (err) {
      showError(errorBox, err.message);
    }
  }

  // A newer state of the search shown (an older search's is dropped).
  function searchState(state) {
    if (!eg.state || eg.state.id !== state.id) return;
    eg.state = state;
    renderEndgame();
    pollSearch();
  }

  function pollSearch() {
    clearTimeout(eg.timer);
    const state = eg.state;
    if (!state || state.status !== "running") return;
    eg.timer = setTimeout(() => {
      api(`/api/searches/${state.id}`).then(searchState)
        .catch((err) => showError($("eg-error"), err.message));
    }, 300);
  }

  function stopSearch() {
    const state = eg.state;
    if (!state || state.status !== "running") return;
    $("btn-eg-stop").disabled = true;
    api(`/api/searches/${state.id}/stop`, { method: "POST" }).then(searchState)
      .catch((err) => showError($("eg-error"), err.message));
  }

  function positionSearch(kind) {
    let cgp = withLexiconAlphabet($("cgp-input").value.trim());
    if (!cgp && pos.grid && !editorUntouched()) cgp = buildCgp();
    if (!cgp) {
      showError($("analyse-error"), "Paste a position in CGP first, or edit the board.");
      return;
    }
    startSearch(kind, { cgp, lexicon: lexiconChoice($("analyse-lexicon")) },
      $("analyse-error"));
  }

  function turnSearch(kind) {
    const turn = gcg.data && (gcg.data.turns || [])[gcg.index];
    if (!turn) return;
    // the record's event (1-based), which the list of turns shows in order
    startSearch(kind, { gcg: gcg.text, turn: (turn.index ?? gcg.index) + 1,
                        lexicon: gcg.lexicon }, $("gcg-error"));
  }

  function searchProgress(s) {
    const p = s.progress || {};
    const time = `${fmt(s.elapsed, 1)} of ${fmt(s.seconds, 1)} s`;
    if (p.total) return [p.done / p.total, `${p.done} of ${p.total} ${p.what} · ${time}`];
    return [Math.min(1, s.elapsed / s.seconds), `${p.what || "searching"} · ${time}`];
  }

  function renderEndgame() {
    const s = eg.state;
    const pre = eg.kind === "preendgame";
    const running = !!s && s.status === "running";
    $("btn-eg-again").disabled = !eg.request || running;
    $("btn-eg-stop").disabled = !running || s.stopping;
    $("eg-progress").hidden = !running;
    $("eg-result").hidden = !s || !s.result;
    if (!s) return;
    const where = s.turn ? `turn ${s.turn} of the record` : "the position";
    $("eg-title").textContent = pre ? "Pre-endgame" : "Endgame";
    $("eg-about").textContent = `${where} · ${s.lexicon} · ${s.position.bag} in the bag`;
    if (running) {
      const [part, text] = searchProgress(s);
      $("eg-bar").value = part;
      $("eg-progress-text").textContent = s.stopping ? "stopping…" : text;
    }
    if (s.status === "failed") showError($("eg-error"), s.error || "the search failed");
    const res = s.result;
    const rows = res ? (pre ? res.candidates : res.pv) || [] : [];
    const shown = Math.min(eg.shown, rows.length - 1);
    // the board: the candidate shown, or the principal variation up to the move shown
    const overlay = [];
    const marks = new Map();
    rows.forEach((m, i) => {
      if (pre ? i !== shown : i > shown) return;
      overlay.push(...moveOverlay(m, pre || m.side === "to move" ? "chosen" : "played"));
      if (i === shown) marksOf(moveSquares(m), "marked", marks);
    });
    renderBoard($("eg-board"), s.position.board, { overlay, marks });
    renderRack($("eg-rack"), rackTiles(s.position.racks[0]));
    renderRack($("eg-rack2"), rackTiles(s.position.racks[1]));
    const known = (s.position.racks[1] || []).length > 0;
    $("eg-rack2").hidden = !known;
    $("eg-rack2-label").textContent = known ? "opponent" : "opponent: unknown";
    const m = rows[shown];
    $("eg-shown").textContent = m ? `On the board: ${m.move} · ${m.score} points` : "";
    if (res) renderEndgameTable(s, res, rows, shown, pre);
  }

  function renderEndgameTable(s, res, rows, shown, pre) {
    const table = clear($("eg-table"));
    const stopped = s.status === "stopped" ? " · stopped" : "";
    const row = (m, i, cells) => h("tr", {
      class: `move-row ${i === shown ? "pinned" : ""} ${i === 0 ? "top" : ""}`,
      "data-testid": "eg-row", "data-index": i, "data-move": m.move,
      onclick: () => { eg.shown = i; renderEndgame(); },
    }, cells);
    if (pre) {
      const exact = res.exact ? "exact" : `${res.exact_endgames} of ${res.endgames} endgames exact`;
      $("eg-summary").textContent = `${rows.length} candidates · ${exact}${stopped} · `
        + `${fmt(res.seconds, 1)} s`;
      table.append(h("tr", {}, h("th", {}, "#"), h("th", {}, "Move"), h("th", {}, "Score"),
        h("th", {}, "Win %"), h("th", {}, "Spread"), h("th", {}, "Draws"),
        h("th", {}, "Exact"), h("th", {}, "How")));
      rows.forEach((m, i) => table.append(row(m, i, [
        h("td", { class: "rank" }, i + 1), h("td", { class: "mv" }, m.move),
        h("td", { class: "num" }, m.score),
        h("td", { class: "num", "data-testid": "eg-win" }, fmt(m.win_pct)),
        h("td", { class: "num eq" }, signed(m.spread_change, 2)),
        h("td", { class: "num" }, m.method === "rollouts" ? `${m.rollouts} rollouts`
          : m.draws === m.worlds ? m.draws : `${m.draws} of ${m.worlds}`),
        h("td", { class: "num" }, m.exact ? "yes" : m.method === "rollouts" ? "no"
          : `${m.exact_draws} of ${m.worlds}`),
        h("td", { class: "muted" }, m.method)])));
      return;
    }
    const how = res.exact ? "exact" : `depth ${res.depth} / not exact`;
    $("eg-summary").textContent = `value ${signed(res.value)} for the player to move · ${how}`
      + `${stopped} · ${res.nodes.toLocaleString()} nodes in ${fmt(res.seconds, 2)} s`;
    table.append(h("tr", {}, h("th", {}, "#"), h("th", {}, "Move"), h("th", {}, "Score"),
      h("th", {}, "Who")));
    rows.forEach((m, i) => table.append(row(m, i, [
      h("td", { class: "rank" }, i + 1), h("td", { class: "mv" }, m.move),
      h("td", { class: "num" }, m.score), h("td", { class: "muted" }, m.side)])));
  }

  $("btn-pos-endgame").addEventListener("click", () => positionSearch("endgame"));
  $("btn-pos-preendgame").addEventListener("click", () => positionSearch("preendgame"));
  $("btn-turn-endgame").addEventListener("click", () => turnSearch("endgame"));
  $("btn-turn-preendgame").addEventListener("click", () => turnSearch("preendgame"));
  $("btn-eg-stop").addEventListener("click", stopSearch);
  $("btn-eg-again").addEventListener("click", () => {
    if (eg.request) startSearch(eg.kind, eg.request, $("eg-error"));
  });

  let analyseTab = "position";
  function selectTab(name) {
    analyseTab = name;
    document.querySelectorAll(".tab").forEach((t) =>
      t.classList.toggle("active", t.dataset.tab === name));
    $("panel-position").hidden = name !== "position";
    $("panel-gcg").hidden = name !== "gcg";
  }
  document.querySelectorAll(".tab").forEach((t) =>
    t.addEventListener("click", () => selectTab(t.dataset.tab)));

  // ================================================================ games
  async function showGames() {
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

  function shortDate(text) {
    if (!text) return "";
    const d = new Date(text);
    if (Number.isNaN(d.getTime())) return String(text);
    return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
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

  // ================================================================ rankings
  async function showRankings() {
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

  // ================================================================ routing
  const VIEWS = ["play", "game", "analyse", "endgame", "games", "rankings"];

  function currentRoute() {
    const hash = decodeURIComponent(location.hash.replace(/^#\/?/, "")) || "play";
    const [name, arg] = hash.split("/");
    return { name, arg: arg === undefined ? null : arg };
  }

  function showView(name) {
    for (const v of VIEWS) $(`view-${v}`).hidden = v !== name;
    const nav = { game: "play", endgame: "analyse" }[name] || name;
    document.querySelectorAll("nav a").forEach((a) =>
      a.classList.toggle("active", a.dataset.route === nav));
  }

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
    else if ((name === "analyse" || name === "analyze") && analyseTab === "position") {
      editorKey(e);
    } else if ((name === "analyse" || name === "analyze") && analyseTab === "gcg" && gcg.data) {
      if (e.key === "ArrowLeft") gcgGo(gcg.index - 1);
      if (e.key === "ArrowRight") gcgGo(gcg.index + 1);
    }
  });

  window.addEventListener("hashchange", route);
  route();
  api("/api/health").then(() => { $("server-state").textContent = ""; })
    .catch(() => { $("server-state").textContent = "server offline"; });
})();
