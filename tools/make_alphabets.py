"""Write src/rackety/data/alphabets/*.json from ../shared/spec/letter_distributions.json.

Run once when the shared tile sets change:  python tools/make_alphabets.py [SPEC]

The tile order (and so the tile codes) follows wolges' alphabet files, the layout
that KWG files built by wolges, MAGPIE and Macondo assume: the spec lists only the
letters that have tiles, so letters that exist only for blanks are put back where
wolges has them (Norwegian, Swedish, Slovene) or in alphabetical order (Italian).
Accent folding (which accented letters a word list may spell with plain tiles)
is our own data, taken from each set's notes and the oracle's Catalan rules.
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
FOLD["catalan_super"] = FOLD["catalan"]

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
