"""Write src/rackety/data/alphabets/*.json from ../shared/spec/letter_distributions.json.

Run once when the shared tile sets change:  python tools/make_alphabets.py [SPEC]

The tile order (and so the tile codes) follows wolges' alphabet files, the layout
that KWG files built by wolges, MAGPIE and Macondo assume: the spec lists only the
letters that have tiles, so letters that exist only for blanks are put back where
wolges has them (Norwegian, Swedish, Slovene) or in alphabetical order (Italian).
Accent folding (which accented letters a word list may spell with plain tiles)
is our own data, taken from each set's notes and the oracle's Catalan rules.
The rules that differ by language (rack size, bingo bonus, the tiles the bag
must hold for an exchange, the scoreless turns that end a game) are written
with their sources into each file's ``rules_sources``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SPEC = ROOT.parent / "shared" / "spec" / "letter_distributions.json"
OUT = ROOT / "src" / "rackety" / "data" / "alphabets"

# Blank-only letters: each is inserted after the letter named (None = at the end).
BLANK_ONLY_AFTER = {
    "norwegian": {"Q": "P", "X": "W", "Ü": "Y", "Z": "Ü", "Ä": "Æ", "Ö": "Ø"},
    "swedish": {"Q": "P", "W": "V", "Ü": "Y", "Æ": "Ä"},
    "slovene": {"Q": "P", "W": "V", "X": "W", "Y": "X"},
    "italian": {"J": "I", "K": "J", "W": "V", "X": "W", "Y": "X"},
}
VOWELS = set("AEIOUÄÖÜÆØÅY")

FOLD = {
    "french": {"À": "A", "Â": "A", "Ä": "A", "Ç": "C", "É": "E", "È": "E", "Ê": "E", "Ë": "E",
               "Î": "I", "Ï": "I", "Ô": "O", "Ö": "O", "Ù": "U", "Û": "U", "Ü": "U", "Ÿ": "Y",
               "Œ": "OE", "Æ": "AE"},
    "catalan": {"À": "A", "È": "E", "É": "E", "Í": "I", "Ï": "I", "Ò": "O", "Ó": "O", "Ú": "U",
                "Ü": "U", "Ŀ": "L·"},
    "spanish": {"Á": "A", "É": "E", "Í": "I", "Ó": "O", "Ú": "U", "Ü": "U"},
    "italian": {"À": "A", "È": "E", "É": "E", "Ì": "I", "Í": "I", "Î": "I", "Ò": "O", "Ó": "O",
                "Ù": "U", "Ú": "U"},
    "portuguese": {"Á": "A", "À": "A", "Â": "A", "Ã": "A", "É": "E", "Ê": "E", "Í": "I", "Ó": "O",
                   "Ô": "O", "Õ": "O", "Ú": "U", "Ü": "U"},
    "dutch": {"Á": "A", "À": "A", "Ä": "A", "É": "E", "È": "E", "Ê": "E", "Ë": "E", "Í": "I",
              "Ï": "I", "Ó": "O", "Ö": "O", "Ú": "U", "Ü": "U"},
}
# Catalan's middle dot (U+00B7, the punt volat of L·L) as people type it: the
# characters Unicode's confusables data (UTS #39, confusables.txt) gives as
# look-alikes of U+00B7 (the Greek ano teleia U+0387 is U+00B7 by NFC already).
# Only L·L has a dot: a look-alike anywhere else is refused, as a stray · is. Not
# folded: "." and "-" (L.L and L-L are misspellings by the Catalan references,
# and "." means a tile already on the board in move notation).
MIDDLE_DOT_LOOK_ALIKES = ("\u2022", "\u2027", "\u2219", "\u22c5", "\u2e31", "\u30fb",
                          "\uff65", "\u16eb", "\u1427", "\ua78f", "\U00010101")
FOLD["catalan"].update(dict.fromkeys(MIDDLE_DOT_LOOK_ALIKES, "·"))
FOLD["catalan_super"] = FOLD["catalan"]
# Dutch spells IJ with the I and J tiles; the ligature Ĳ (U+0132) is the same two
FOLD["dutch"]["Ĳ"] = "IJ"
# German Scrabble spells ß as SS (the set has no ß tile; Python's upper() does the
# same, the fold says it for the capital ẞ too)
FOLD["german"] = {"ß": "SS", "ẞ": "SS"}

# The scoreless turns (passes and exchanges in a row, all players together) that
# end a game, where a set's rules differ from 6.
MAX_SCORELESS = {"spanish": 12}

# Where the rules' values come from. wolges' game_config.rs (andy-k/wolges) has a
# game configuration per language, citing the federations' rules where it does.
WOLGES = "wolges src/game_config.rs, make_{}_game_config"
_NASPA = ("NASPA Official Tournament Rules and the WESPA Rules: six consecutive scoreless "
          "turns end a game, an exchange needs at least 7 tiles in the bag; ")
EXCHANGE_SOURCES = {
    "english": _NASPA + WOLGES.format("english") + " (exchange_tile_limit 7)",
    "spanish": ("FISE classic rules (fisescrabble.org/reglamentos/modalidad-clasica/) as "
                + WOLGES.format("spanish") + " reads them: exchange_tile_limit 1, an exchange "
                "needs 1 tile in the bag; Scrabble3D's Spanish set (limitExchange=1) agrees"),
    "italian": ("no federation rule found; the usual 7 is kept (Scrabble3D sets "
                "limitExchange=3 for Italian, citing the Italian federation: not confirmed)"),
    "portuguese": "no federation rule found; the usual 7",
    "swedish": "no federation rule found; the usual 7",
    "english_wwf": "no rule for this style of set; the usual 7",
    "english_lexulous": "no rule for this style of set; the usual 7",
}
SCORELESS_SOURCES = {
    "english": _NASPA + WOLGES.format("english") + " (num_zeros_to_end 6)",
    "spanish": ("FISE classic rules as " + WOLGES.format("spanish") + " reads them: 12 "
                "scoreless turns in a row end a game (num_zeros_to_end 12); FISE also ends it "
                "after 4 passes in a row and counts a lost challenge as a pass, which rackety "
                "does not model apart"),
    "german": (WOLGES.format("german") + ": Scrabble Deutschland's rules end a game after 4 "
               "passes in a row (2 each), exchanges not counted (num_passes_to_end 4); rackety "
               "counts passes and exchanges together and keeps 6"),
    "polish": ("PFS rules (pfs.org.pl/regulaminy.php) as " + WOLGES.format("polish")
               + " reads them: 6 scoreless turns in a row (num_zeros_to_end 6), or 4 passes in "
               "a row; at most 3 exchanges a player, which do not count as scoreless there; "
               "rackety models the 6"),
    "italian": "no federation rule found; the usual 6",
    "portuguese": "no federation rule found; the usual 6",
    "swedish": "no federation rule found; the usual 6",
    "english_wwf": "no rule for this style of set; the usual 6",
    "english_lexulous": "no rule for this style of set; the usual 6",
}
_WOLGES_CONFIG = {"catalan": "catalan", "catalan_super": "super_catalan", "dutch": "dutch",
                  "english_super": "super_english", "english_hong_kong": "hong_kong_english",
                  "french": "french", "german": "german", "norwegian": "norwegian",
                  "polish": "polish", "slovene": "slovene"}


def rules_sources(name: str, entry: dict) -> dict:
    """Where each rule's value comes from, for the data file."""
    spec = (f"letter_distributions.json ({entry['primary_source']}"
            + (f", {', '.join(entry['sources_agreeing_exactly'])} agreeing"
               if entry.get("sources_agreeing_exactly") else "") + ")")
    config = _WOLGES_CONFIG.get(name)
    return {
        "rack_size": spec,
        "bingo_bonus": spec,
        "exchange_min_bag": EXCHANGE_SOURCES.get(name) or (
            WOLGES.format(config) + " (exchange_tile_limit 7)"),
        "max_scoreless": SCORELESS_SOURCES.get(name) or (
            WOLGES.format(config) + " (num_zeros_to_end 6)"),
    }

# Input aliases worth keeping: digits never collide with letters.
ALIASES = {"spanish": {"1": "CH", "2": "LL", "3": "RR"}}

DESCRIPTIONS = {
    "english": "English (100 tiles)",
    "french": "French (102 tiles)",
    "german": "German (102 tiles)",
    "spanish": "Spanish, FISE set (100 tiles; CH, LL, RR are single tiles)",
    "catalan": "Catalan, FISC set (100 tiles; L·L, NY, QU are single tiles)",
    "italian": "Italian (120 tiles)",
    "dutch": "Dutch (102 tiles)",
    "polish": "Polish (100 tiles)",
    "norwegian": "Norwegian (100 tiles)",
    "swedish": "Swedish (100 tiles)",
    "portuguese": "Portuguese (120 tiles)",
    "slovene": "Slovene (100 tiles)",
    "english_super": "English, Super Scrabble (200 tiles, 21x21 board)",
    "catalan_super": "Catalan, Super Scrabble (200 tiles, 21x21 board)",
    "english_hong_kong": "English, Hong Kong variant (107 tiles, rack of 9)",
    "english_wwf": "English, Words-with-Friends-style set (104 tiles)",
    "english_lexulous": "English, Lexulous-style set (89 tiles, rack of 8)",
}


def convert(name: str, entry: dict) -> dict:
    tiles = [
        {"label": t["tile"], "blank_label": t["tile"].lower(), "count": t["count"],
         "points": t["points"], "vowel": bool(t["vowel"])}
        for t in entry["tiles"]
    ]
    for letter, after in BLANK_ONLY_AFTER.get(name, {}).items():
        assert letter in entry.get("zero_count_letters_blank_only", []), (name, letter)
        pos = next(i for i, t in enumerate(tiles) if t["label"] == after) + 1
        tiles.insert(pos, {"label": letter, "blank_label": letter.lower(), "count": 0,
                           "points": 0, "vowel": letter in VOWELS})
    missing = set(entry.get("zero_count_letters_blank_only", [])) - {t["label"] for t in tiles}
    assert not missing, (name, missing)
    blank = {"label": "?", "blank_label": "?", "count": entry["blanks"], "points": 0,
             "vowel": False}
    bonus = entry["bingo_bonus"]
    out = {
        "name": name,
        "description": DESCRIPTIONS[name],
        "board": entry.get("board", "standard15").split()[0],
        "rack_size": entry["rack_size"],
        "bingo_bonus": max(bonus.values()) if isinstance(bonus, dict) else bonus,
        "exchange_min_bag": entry.get("exchange_requires_bag_at_least", 7),
        "max_scoreless": MAX_SCORELESS.get(name, 6),
        "rules_sources": rules_sources(name, entry),
        "tiles": [blank, *tiles],
    }
    if isinstance(bonus, dict):
        out["bingo_bonus_by_tiles"] = {k: v for k, v in sorted(bonus.items())}
    if name in ALIASES:
        out["aliases"] = ALIASES[name]
    if name in FOLD:
        out["fold"] = FOLD[name]
    assert sum(t["count"] for t in out["tiles"]) == entry["total_tiles"], name
    assert len(out["tiles"]) <= 64, name
    return out


def dump(alphabet: dict) -> str:
    """JSON with one tile a line, so the file reads as a table."""
    head = {k: v for k, v in alphabet.items() if k != "tiles"}
    lines = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    rows = [f"  {json.dumps(t, ensure_ascii=False)}" for t in alphabet["tiles"]]
    return "{\n" + "\n".join(lines) + '\n "tiles": [\n' + ",\n".join(rows) + "\n ]\n}\n"


def main() -> None:
    spec = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SPEC
    data = json.loads(spec.read_text(encoding="utf-8"))
    OUT.mkdir(parents=True, exist_ok=True)
    entries = {**data["languages"], **data["variants"]}
    for name, entry in entries.items():
        path = OUT / f"{name}.json"
        path.write_text(dump(convert(name, entry)), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
