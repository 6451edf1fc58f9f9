"""A game report to look at: one self-contained HTML page of a record's analysis.

`game_report_html` turns what `rackety.frontends.analysis.analyze_record` found
(the move played against the best, the equity lost, missed bingos, phonies)
and the record's replay (`rackety.game.gcg.replay`: the board after every
turn) into one page: a header with the players and the final scores, per-player
totals (`RecordAnalysis.summary`), a bar chart of the equity lost turn by turn
(inline SVG, one mark per turn), and every turn with the board after it
(`Board.svg`, the tiles played outlined) beside the move played, the best move
and the equity lost. ``rackety analyze FILE.gcg --html OUT.html`` writes it and
the web app serves it for a stored game (``GET /api/games/{id}/report``).

The page loads nothing: its CSS, SVG and the few lines of script are inline,
and it names no URL (the SVG namespace is left out, as HTML allows). Everything
that comes from the record (names, racks, moves as written, notes, the file
name) is escaped, and the page's Content-Security-Policy (`CSP`, in a meta
element so that a saved file keeps it; the web app also sends it as a header)
runs only the page's own script, named by its SHA-256: a script that got into
the page some other way would not run.
"""

from __future__ import annotations

import base64
import hashlib
import math
from collections.abc import Collection
from html import escape
from typing import TYPE_CHECKING

from rackety.frontends.analysis import ASSESSED_KINDS, RecordAnalysis, TurnAnalysis
from rackety.game.render import svg_layers, svg_open

if TYPE_CHECKING:
    from rackety.game.gcg import Replay

#: the mistakes (`rackety.search.judge.Verdict.loss`) a turn gets a board for;
#: the page can show only those, and turns with a missed bingo or a phony
MISTAKE = ("small", "medium", "large")
#: players' colours, by seat (round the list for more seats)
COLOURS = ("#2b6cb0", "#c05621", "#2f855a", "#805ad5")
BOARD_PIXELS = 360
_SVG_NS = ' xmlns="http://www.w3.org/2000/svg"'

_CSS = """
:root { color-scheme: light; --ink: #1f2328; --muted: #656d76; --line: #d0d7de; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 16px; color: var(--ink);
       font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
h1 { font-size: 1.5em; margin: 0 0 4px; }
h2 { font-size: 1.15em; margin: 28px 0 8px; border-bottom: 1px solid var(--line); }
.meta { color: var(--muted); margin: 0 0 6px; }
.final { font-size: 1.15em; margin: 6px 0; }
table { border-collapse: collapse; }
.scroll { overflow-x: auto; }
th, td { padding: 3px 10px 3px 0; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; }
.totals th { border-bottom: 1px solid var(--line); }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px;
          margin-right: 6px; vertical-align: -1px; }
.chart { width: 100%; height: auto; max-height: 300px; }
.chart .axis { stroke: #888; stroke-width: 1; }
.chart .grid { stroke: #e4e7eb; stroke-width: 1; }
.chart text { font-size: 11px; fill: var(--muted); }
.chart text.flag { font-weight: bold; font-size: 11px; }
.chart text.flag.missed-bingo { fill: #b7791f; }
.chart text.flag.phony { fill: #c53030; }
.chart .mark.unassessed { fill: #fff; stroke: #999; stroke-dasharray: 2 2; }
.legend { color: var(--muted); font-size: 0.9em; margin: 4px 0 0; }
.controls { margin: 8px 0; }
.turn { display: flex; flex-wrap: wrap; gap: 16px; padding: 14px 0;
        border-bottom: 1px solid var(--line); }
.turn figure.board { margin: 0; flex: 0 1 360px; min-width: 220px; }
.turn figure.board svg { width: 100%; height: auto; display: block; }
svg.ground { position: absolute; width: 0; height: 0; overflow: hidden; }
.turn .text { flex: 1 1 300px; min-width: 240px; }
.turn h3 { margin: 0 0 6px; font-size: 1.05em; }
.turn h3 .rack { font-family: ui-monospace, Menlo, Consolas, monospace; letter-spacing: 1px;
                 background: #f6f1e1; padding: 1px 5px; border-radius: 3px; }
.turn .move { font-family: ui-monospace, Menlo, Consolas, monospace; }
.turn .lost { font-weight: bold; }
.turn.mistake .lost { color: #c53030; }
.flags { list-style: none; padding: 0; margin: 6px 0; }
.flags li { display: inline-block; margin: 0 6px 4px 0; padding: 1px 8px; border-radius: 10px;
            font-size: 0.9em; background: #edf2f7; }
.flags li.missed-bingo { background: #fefcbf; }
.flags li.bingo { background: #c6f6d5; }
.flags li.phony { background: #fed7d7; }
.note { margin: 6px 0 0; padding: 4px 10px; border-left: 3px solid var(--line);
        color: var(--muted); white-space: pre-wrap; }
body.mistakes-only .turn:not(.mistake) { display: none; }
@media print { .controls { display: none; } .turn { break-inside: avoid; } }
"""

_SCRIPT = """
(function () {
  var box = document.getElementById("mistakes-only");
  if (box) box.addEventListener("change", function () {
    document.body.classList.toggle("mistakes-only", box.checked);
  });
})();
"""


def script_hash(script: str) -> str:
    """The CSP source that allows one inline script: ``'sha256-BASE64'`` of its
    text as UTF-8 (CSP Level 2, "hash-source")."""
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


#: the page's Content-Security-Policy: nothing loaded, inline styles, and the one
#: script of the page by its hash (no 'unsafe-inline' for scripts)
CSP = (f"default-src 'none'; style-src 'unsafe-inline'; script-src {script_hash(_SCRIPT)}; "
       "base-uri 'none'; form-action 'none'")


def game_report_html(analysis: RecordAnalysis, replayed: Replay, *,
                     players: Collection[str] | None = None, title: str | None = None) -> str:
    """The report of ``analysis`` (of the record ``replayed`` plays) as one
    HTML page. ``players``: only these nicknames' turns and totals (as
    ``RecordAnalysis.listed``); ``title`` wins over the record's ``#title``.

    The page has one board per turn listed (plays, exchanges and passes: the
    board after the turn) and a chart with one mark per such turn."""

    record = replayed.record
    turns = analysis.listed(players)
    seat_colour = {i: COLOURS[i % len(COLOURS)] for i in range(len(analysis.players))}
    heading = title or record.title or "Game report"
    body = [_header(analysis, replayed, heading),
            _totals(analysis, players, seat_colour),
            _chart(turns, seat_colour, analysis.players),
            _turns(turns, replayed, seat_colour)]
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n"
            f"<title>{escape(heading)}</title>\n<style>{_CSS}</style>\n</head>\n"
            "<body>\n" + "\n".join(body) + f"\n<script>{_SCRIPT}</script>\n</body>\n</html>\n")


# ------------------------------------------------------------------ parts
def _how(analysis: RecordAnalysis) -> str:
    if analysis.sim_seconds:
        how = (f"valued by simulating {analysis.sim_seconds:g} s a turn (leave values: "
               f"{analysis.leave})")
    elif analysis.leave == "none":
        how = "equity = score"
    else:
        how = f"static equity: score + leave value ({analysis.leave})"
    searched = "exactly" if analysis.budget is None else \
        f"within {analysis.budget:g} s a search"
    return f"{how}; endgames and pre-endgames solved {searched}"


def _header(analysis: RecordAnalysis, replayed: Replay, heading: str) -> str:
    record = replayed.record
    names = []
    for seat, p in enumerate(record.players):
        full = f" ({p.name})" if p.name and p.name != p.nickname else ""
        score = analysis.scores[seat] if seat < len(analysis.scores) else ""
        names.append(f"<span class=\"player seat-{seat}\">{escape(p.nickname)}{escape(full)}"
                     f"</span> <strong class=\"score\">{score}</strong>")
    out = [f"<header>\n<h1>{escape(heading)}</h1>",
           f"<p class=\"final\" data-testid=\"final\">{' &ndash; '.join(names)}</p>",
           f"<p class=\"meta\">{escape(analysis.source)} &middot; lexicon "
           f"{escape(analysis.lexicon)} &middot; {escape(_how(analysis))}"
           f"{'' if replayed.over else ' &middot; the game is not over'}</p>"]
    if record.description:
        out.append(f"<p class=\"meta\">{escape(record.description)}</p>")
    out.append("</header>")
    return "\n".join(out)


def _totals(analysis: RecordAnalysis, players: Collection[str] | None,
            seat_colour: dict[int, str]) -> str:
    rows = []
    for s in analysis.summary(players):
        seat = analysis.players.index(s.player) if s.player in analysis.players else 0
        score = analysis.scores[seat] if seat < len(analysis.scores) else 0
        rows.append(
            f"<tr data-player=\"{escape(s.player)}\"><td><span class=\"swatch\" "
            f"style=\"background:{seat_colour.get(seat, '#999')}\"></span>"
            f"{escape(s.player)}</td><td class=\"num\">{score}</td>"
            f"<td class=\"num\">{s.turns}</td>"
            f"<td class=\"num total-lost\">{s.equity_lost:.1f}</td>"
            f"<td class=\"num\">{s.average_lost:.1f}</td>"
            f"<td class=\"num\">{s.win_pct_lost:.1f}</td>"
            f"<td class=\"num\">{'/'.join(str(s.mistakes[k]) for k in MISTAKE)}</td>"
            f"<td class=\"num mistake-index\">{s.mistake_index:.1f}</td>"
            f"<td class=\"num\">{s.bingos}</td>"
            f"<td class=\"num\">{s.bingos_missed}</td><td class=\"num\">{s.phonies}</td>"
            f"<td class=\"num\">{s.phonies_challenged}</td>"
            f"<td class=\"num\">{s.phonies_stood}</td></tr>")
    head = "".join(f"<th class=\"num\">{h}</th>" for h in (
        "score", "turns assessed", "points lost", "lost / turn", "win % lost",
        "mistakes S/M/L", "Mistake Index", "bingos", "bingos missed", "phonies",
        "challenged off", "stood"))
    return ("<section id=\"totals\">\n<h2>Totals</h2>\n<div class=\"scroll\">"
            "<table class=\"totals\" data-testid=\"totals\">\n<thead><tr><th>player</th>" +
            head + "</tr></thead>\n<tbody>\n" + "\n".join(rows) +
            "\n</tbody>\n</table></div>\n</section>")


def _nice_top(value: float) -> float:
    """The chart's top: ``value`` rounded up to 1, 2, 2.5 or 5 times a power of 10
    (10 at least)."""
    if value <= 10:
        return 10.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power:
            return float(step * power)
    return float(10 * power)  # pragma: no cover - the loop ends at 10


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _chart(turns: list[TurnAnalysis], seat_colour: dict[int, str], names: list[str]) -> str:
    """A bar per turn: its height the equity lost; a dashed box at the axis for a
    turn not assessed; B above a missed bingo, P above a phony."""
    n = len(turns)
    left, right, top, bottom, height = 44, 10, 18, 26, 220
    step = 24.0
    width = max(480.0, left + right + n * step)
    step = (width - left - right) / max(n, 1)
    plot = height - top - bottom
    most = max((t.equity_lost or 0.0 for t in turns if t.assessed), default=0.0)
    ceiling = _nice_top(most)
    base = top + plot
    out = [f"<svg class=\"chart\" data-testid=\"chart\" viewBox=\"0 0 {_num(width)} {height}\" "
           f"role=\"img\" aria-label=\"equity lost, turn by turn\" "
           f"preserveAspectRatio=\"xMinYMin meet\">"]
    for k in range(5):
        value = ceiling * k / 4
        y = base - plot * k / 4
        out.append(f"<line class=\"grid\" x1=\"{left}\" x2=\"{_num(width - right)}\" "
                   f"y1=\"{_num(y)}\" y2=\"{_num(y)}\"/>")
        out.append(f"<text x=\"{left - 6}\" y=\"{_num(y + 4)}\" text-anchor=\"end\">"
                   f"{_num(value)}</text>")
    out.append(f"<line class=\"axis\" x1=\"{left}\" x2=\"{left}\" y1=\"{top}\" "
               f"y2=\"{_num(base)}\"/>")
    out.append(f"<line class=\"axis\" x1=\"{left}\" x2=\"{_num(width - right)}\" "
               f"y1=\"{_num(base)}\" y2=\"{_num(base)}\"/>")
    label_every = 1 if n <= 30 else 5
    bar = step * 0.7
    for k, t in enumerate(turns, 1):
        x = left + (k - 1) * step + (step - bar) / 2
        cx = x + bar / 2
        what = f"{k}. {t.player}: {_move_text(t)}"
        if t.assessed:
            lost = float(t.equity_lost or 0.0)
            h = max(plot * min(lost, ceiling) / ceiling, 1.5)
            tip = f"{what}; lost {lost:.1f}"
            out.append(f"<a href=\"#turn-{k}\"><rect class=\"mark seat-{t.seat}\" "
                       f"data-turn=\"{k}\" data-lost=\"{lost:.3f}\" x=\"{_num(x)}\" "
                       f"y=\"{_num(base - h)}\" width=\"{_num(bar)}\" height=\"{_num(h)}\" "
                       f"fill=\"{seat_colour.get(t.seat, '#999')}\"><title>{escape(tip)}"
                       f"</title></rect></a>")
            flag_y = base - h - 4
        else:
            out.append(f"<a href=\"#turn-{k}\"><rect class=\"mark unassessed\" "
                       f"data-turn=\"{k}\" x=\"{_num(x)}\" y=\"{_num(base - 6)}\" "
                       f"width=\"{_num(bar)}\" height=\"6\"><title>{escape(what)}; not "
                       f"assessed</title></rect></a>")
            flag_y = base - 10
        flags = ("B", "missed-bingo") if t.missed_bingo else ("P", "phony") if t.phonies \
            else None
        if flags:
            out.append(f"<text class=\"flag {flags[1]}\" x=\"{_num(cx)}\" "
                       f"y=\"{_num(max(flag_y, 11))}\" text-anchor=\"middle\">{flags[0]}</text>")
        if k % label_every == 0 or k == 1:
            out.append(f"<text x=\"{_num(cx)}\" y=\"{_num(base + 15)}\" "
                       f"text-anchor=\"middle\">{k}</text>")
    out.append("</svg>")
    legend = " ".join(
        f"<span><span class=\"swatch\" style=\"background:{seat_colour[s]}\"></span>"
        f"{escape(name)}</span>" for s, name in enumerate(names) if s in seat_colour)
    return ("<section id=\"chart\">\n<h2>Equity lost, turn by turn</h2>\n" + "\n".join(out) +
            f"\n<p class=\"legend\">{legend} &middot; B: a missed bingo &middot; P: a phony "
            "&middot; a dashed box: a turn not assessed (its rack unknown) &middot; click a "
            "bar for its turn</p>\n</section>")


def _move_text(t: TurnAnalysis) -> str:
    if t.kind == "pass":
        return "pass"
    return t.played_text or t.written


def _flags(t: TurnAnalysis) -> list[tuple[str, str]]:
    out = []
    if t.kind == "play" and t.bingo:
        out.append(("bingo", "bingo"))
    if t.missed_bingo:
        out.append(("missed-bingo", f"missed bingo {t.best_bingo_text or ''}".strip()))
    if t.phonies:
        out.append(("phony", f"phony {', '.join(t.phonies)} ({t.phony_fate})"))
    if t.mistake in MISTAKE:
        out.append(("graded", f"{t.mistake} mistake"))
    if not t.assessed:
        out.append(("unassessed", f"not assessed: {t.why_not}" if t.why_not
                    else "not assessed"))
    return out


def _notes(replayed: Replay, index: int) -> list[str]:
    """The record's notes on event ``index`` and on the events after it up to the
    next turn (a ``--`` and its notes belong to the play it takes back)."""
    events = replayed.record.events
    notes = list(events[index].notes)
    for event in events[index + 1:]:
        if event.kind in ASSESSED_KINDS:
            break
        notes += event.notes
    return notes


def _equity(value: float | None) -> str:
    return "&ndash;" if value is None else f"{value:.1f}"


def _drawn(t: TurnAnalysis) -> bool:
    """Whether a turn gets a board: a mistake, a missed bingo or a phony."""
    return t.mistake in MISTAKE or t.missed_bingo or bool(t.phonies)


def _turns(turns: list[TurnAnalysis], replayed: Replay, seat_colour: dict[int, str]) -> str:
    out = ["<section id=\"turns\">\n<h2>Turn by turn</h2>",
           "<p class=\"controls\"><label><input type=\"checkbox\" id=\"mistakes-only\"> "
           "only mistakes (a board is drawn for each), missed bingos and phonies"
           "</label></p>"]
    events = replayed.record.events
    if any(_drawn(t) for t in turns):  # the empty board, drawn once, each board's ground
        blank = replayed.positions[0].copy()
        blank.grid[...] = 0
        ground, _ = svg_layers(blank, BOARD_PIXELS)
        out.append(f"<svg class=\"ground\" width=\"0\" height=\"0\" aria-hidden=\"true\">"
                   f"<defs><g id=\"ground\">{ground}</g></defs></svg>")
    for k, t in enumerate(turns, 1):
        mistake = _drawn(t)
        svg = ""
        if mistake:  # a board for a turn to look at; the others are a line of the list
            after = replayed.positions[min(t.index + 1, len(replayed.positions) - 1)]
            move = replayed.moves[t.index] if t.kind == "play" else None
            _, tiles = svg_layers(after, BOARD_PIXELS, highlight=move)
            svg = (svg_open(BOARD_PIXELS).replace(_SVG_NS, "", 1) +
                   f"\n<use href=\"#ground\"/>\n{tiles}\n</svg>")
        lost = t.equity_lost
        event = events[t.index]
        played_score = t.played.score if t.played is not None and t.played.score is not None \
            else t.score
        rows = [f"<tr><th>played</th><td class=\"move played\">{escape(_move_text(t))}</td>"
                f"<td class=\"num\">{played_score:+d}</td>"
                f"<td class=\"num\">{_equity(t.played_equity)}</td>"
                f"<td class=\"num\">{_equity(t.played_win_pct)}</td></tr>"]
        if t.best_text is not None:
            best_score = t.best.score if t.best is not None and t.best.score is not None else 0
            rows.append(f"<tr><th>best</th><td class=\"move best\">{escape(t.best_text)}</td>"
                        f"<td class=\"num\">{best_score:+d}</td>"
                        f"<td class=\"num\">{_equity(t.best_equity)}</td>"
                        f"<td class=\"num\">{_equity(t.best_win_pct)}</td></tr>")
        how = f" ({escape(t.valued_by)})" if t.valued_by else ""
        wins = "" if t.win_pct_lost is None else f", {t.win_pct_lost:.1f} % of wins"
        rows.append(f"<tr><th>lost</th><td class=\"lost\" colspan=\"4\">"
                    f"{_equity(lost)}{wins}{how}</td></tr>")
        flags = "".join(f"<li class=\"{cls}\">{escape(text)}</li>" for cls, text in _flags(t))
        flag_list = f"<ul class=\"flags\">{flags}</ul>\n" if flags else ""
        notes = "".join(f"<p class=\"note\">{escape(n)}</p>" for n in _notes(replayed, t.index))
        colour = seat_colour.get(t.seat, "#999")
        caption = ("<figcaption class=\"meta\">the play on the board, before the challenge "
                   "took it off</figcaption>" if t.challenged_off else "")
        out.append(
            f"<section class=\"turn seat-{t.seat}{' mistake' if mistake else ''}\" "
            f"id=\"turn-{k}\" data-turn=\"{k}\" data-event=\"{t.index + 1}\">\n"
            + (f"<figure class=\"board\" data-turn=\"{k}\">{svg}{caption}</figure>\n"
               if svg else "") +
            f"<div class=\"text\">\n<h3><span class=\"swatch\" style=\"background:{colour}\">"
            f"</span>{k}. <span class=\"player\">{escape(t.player)}</span> "
            f"<span class=\"rack\">{escape(t.rack) or '?'}</span></h3>\n"
            "<table class=\"compare\"><thead><tr><th></th><th>move</th>"
            "<th class=\"num\">score</th><th class=\"num\">value</th>"
            "<th class=\"num\">win %</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>\n"
            f"{flag_list}"
            f"<p class=\"meta\">{escape(t.player)}'s total {event.total} &middot; record line "
            f"{t.line_number}</p>\n{notes}\n</div>\n</section>")
    if not turns:
        out.append("<p class=\"meta\">No turns to show.</p>")
    out.append("</section>")
    return "\n".join(out)


__all__ = ["BOARD_PIXELS", "CSP", "MISTAKE", "game_report_html", "script_hash"]
