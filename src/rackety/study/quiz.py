"""Word quizzes, as club players drill them in Zyzzyva and Aerolith
(docs/STUDY.md): anagrams (an alphagram: find every word), hooks (a word:
find every word one tile before or after it makes) and the word judge (a
word: valid or phony?). A list of questions comes from a length and a range
of ranks in probability order, from a pattern, or from words a player gives
(a file); anagram and hook lists go in probability order. Every answer is
the lexicon's, and a reply is read in the lexicon's alphabet, so blanks
(``?`` in an anagram question) and tiles of several letters work in every
language rackety ships.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from rackety.errors import RacketyError, clip
from rackety.lexicon.probability import checked_length, checked_ranks

if TYPE_CHECKING:
    from rackety.lexicon import Lexicon

Kind = Literal["anagrams", "hooks", "judge", "puzzle"]
KINDS: tuple[Kind, ...] = ("anagrams", "hooks", "judge", "puzzle")
#: the answers of a word judge question
VALID, PHONY = "valid", "phony"
#: the most questions one list holds
MAX_QUESTIONS = 100_000


@dataclass(frozen=True)
class Grade:
    """How a reply to a `Question` did: the ``found`` answers, those
    ``missed``, what it gave that is not an answer (``wrong``), and what could
    not be read as tiles of the alphabet (``unreadable``)."""

    found: tuple[str, ...]
    missed: tuple[str, ...]
    wrong: tuple[str, ...]
    unreadable: tuple[str, ...] = ()

    @property
    def correct(self) -> bool:
        """Every answer given and nothing else."""
        return not self.missed and not self.wrong and not self.unreadable

    def as_dict(self) -> dict[str, Any]:
        return {"correct": self.correct, "found": list(self.found), "missed": list(self.missed),
                "wrong": list(self.wrong), "unreadable": list(self.unreadable)}


@dataclass(frozen=True)
class Question:
    """One quiz question: its ``kind``, the ``prompt`` shown (an alphagram, a
    word), every ``answer`` (words; for the word judge `VALID` or `PHONY`)
    and, where it has one, the prompt's ``rank`` in probability order."""

    kind: Kind
    prompt: str
    answers: tuple[str, ...]
    rank: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "prompt": self.prompt, "answers": list(self.answers),
                "rank": self.rank}

    def grade(self, reply: str, lexicon: Lexicon) -> Grade:
        """``reply`` graded: words separated by spaces or commas for anagrams
        and hooks (in any case, a tile of several letters as the alphabet
        spells it, with or without brackets), for the word judge ``y``,
        ``yes`` or ``valid`` against ``n``, ``no`` or ``phony``, and for a
        puzzle (its prompt a position's CGP) a move in players' notation."""
        if self.kind == "puzzle":
            from rackety.study.puzzles import same_move

            move, error = same_move(self.prompt, reply, self.answers)
            if move is None:
                return Grade((), self.answers, (), (clip(error, 80),) if reply.strip() else ())
            right = move in self.answers
            return Grade((move,) if right else (), () if right else self.answers,
                         () if right else (move,))
        if self.kind == "judge":
            said = reply.strip().lower()
            if said in ("y", "yes", "valid", "v"):
                given = VALID
            elif said in ("n", "no", "phony", "p"):
                given = PHONY
            else:
                return Grade((), self.answers, (), (clip(reply, 40),) if said else ())
            right = given == self.answers[0]
            return Grade((given,) if right else (), () if right else self.answers,
                         () if right else (given,))
        alphabet = lexicon.alphabet
        given_words: list[str] = []
        unreadable: list[str] = []
        for part in reply.replace(",", " ").split():
            try:
                codes = alphabet.word(part)
            except RacketyError:
                unreadable.append(clip(part, 40))
                continue
            text = alphabet.format(codes, brackets=True)
            if text not in given_words:
                given_words.append(text)
        answers = set(self.answers)
        return Grade(tuple(w for w in self.answers if w in given_words),
                     tuple(w for w in self.answers if w not in given_words),
                     tuple(w for w in given_words if w not in answers), tuple(unreadable))


def _canonical(lexicon: Lexicon, words: Iterable[str], what: str) -> list[str]:
    """``words`` in the alphabet's spelling, each once, in their order; a word
    not of the alphabet is one line naming ``what``."""
    out: list[str] = []
    seen: set[str] = set()
    for i, word in enumerate(words, 1):
        word = word.strip()
        if not word:
            continue
        try:
            text = lexicon.alphabet.format(lexicon.alphabet.word(word), brackets=True)
        except RacketyError as exc:
            raise RacketyError(f"{what}, word {i}: {exc}") from None
        if text not in seen:
            seen.add(text)
            out.append(text)
        if len(out) > MAX_QUESTIONS:
            raise RacketyError(f"{what}: more than {MAX_QUESTIONS:,} words")
    return out


#: the orders a list of alphagrams goes in
Order = Literal["probability", "playability"]
ORDERS: tuple[Order, ...] = ("probability", "playability")


def playability_ranked(lexicon: Lexicon, length: int, *, games: int | None = None,
                       seed: int = 0, blanks: int | None = None) -> list[Question]:
    """Every alphagram of ``length`` tiles as an anagram question in
    playability order: by how often ``games`` games of self-play played its
    words (`rackety.experiments.playability.plays`), most first, ties in
    probability order; each question's rank its place in that order."""
    from rackety.experiments.playability import DEFAULT_GAMES, plays

    counts = plays(lexicon, games=games or DEFAULT_GAMES, seed=seed)
    by_word = dict(zip(lexicon.alphabet.decode_many(*lexicon.word_tiles(), brackets=True),
                       counts.tolist(), strict=True))
    entries = lexicon.probability_order(checked_length(length), blanks=blanks)
    scored = sorted(((sum(by_word.get(w, 0.0) for w in e.words), e.rank, e) for e in entries),
                    key=lambda x: (-x[0], x[1]))
    return [Question("anagrams", e.alphagram, e.words, i + 1)
            for i, (_, _, e) in enumerate(scored)]


def anagram_questions(lexicon: Lexicon, *, length: int | None = None,
                      ranks: tuple[int, int | None] = (1, None),
                      pattern: str | None = None, words: Sequence[str] | None = None,
                      blanks: int | None = None, what: str = "words",
                      order: Order = "probability", games: int | None = None,
                      seed: int = 0) -> list[Question]:
    """Anagram questions in probability order: the alphagrams of ``length``
    tiles ranked ``ranks`` (first and last, 1-based; last None: to the end),
    or of the words matching ``pattern`` (`Lexicon.pattern`), or of ``words``
    (words or racks: a rack with ``?`` asks for every word it makes), their
    ranks with ``blanks`` blanks in the bag. Each question's answers are every
    word of the lexicon with those tiles. With ``order="playability"`` the
    alphagrams of a length are ranked by how often self-play plays them
    instead (`playability_ranked`, ``games`` and ``seed``)."""
    if order not in ORDERS:
        raise RacketyError(f"order {clip(str(order), 40)!r}: expected one of {', '.join(ORDERS)}")
    if order == "playability":
        if length is None or pattern is not None or words is not None:
            raise RacketyError("anagrams: playability order is by length (and its ranks)")
        first, last = checked_ranks(*ranks)
        listed = playability_ranked(lexicon, length, games=games, seed=seed, blanks=blanks)
        return listed[first - 1:last]
    given = [pattern is not None, words is not None]
    if sum(given) > 1 or (length is None and not any(given)):
        raise RacketyError("anagrams: give a length (with its ranks), a pattern or words")
    if words is None:
        if pattern is not None:
            found = lexicon.pattern(pattern, brackets=True)
            if length is not None:
                wanted = checked_length(length)
                found = [w for w in found if len(lexicon.alphabet.word(w)) == wanted]
            words = found
        else:
            plist = lexicon.probability_order(checked_length(length or 0), blanks=blanks)
            return [Question("anagrams", a.alphagram, a.words, a.rank)
                    for a in plist.ranks(*ranks)]
    def fmt(codes: Sequence[int]) -> str:
        return lexicon.alphabet.format(codes, brackets=True)

    questions: dict[str, Question] = {}
    racks: list[Question] = []
    lists: dict[int, Any] = {}
    for i, text in enumerate(words, 1):
        try:
            _ask_about(lexicon, text, questions, racks, lists, blanks, fmt)
        except RacketyError as exc:
            raise RacketyError(f"{what}, word {i}: {exc}") from None
    if len(questions) + len(racks) > MAX_QUESTIONS:
        raise RacketyError(f"{what}: more than {MAX_QUESTIONS:,} questions")
    ordered = sorted(questions.values(),
                     key=lambda q: (len(q.prompt), q.rank if q.rank is not None else 1 << 62))
    return ordered + racks


def _ask_about(lexicon: Lexicon, text: str, questions: dict[str, Question],
               racks: list[Question], lists: dict[int, Any], blanks: int | None,
               fmt: Callable[[Sequence[int]], str]) -> None:
    """The anagram question of one word or rack of a player's (`anagram_questions`)."""
    if "?" in text:
        rack = fmt(sorted(lexicon.alphabet.word(text.replace("?", ""))))
        answers = tuple(lexicon.anagrams(text, brackets=True))
        racks.append(Question("anagrams", rack + "?" * text.count("?"), answers))
        return
    codes = sorted(lexicon.alphabet.word(text))
    alpha = fmt(codes)
    if alpha in questions:
        return
    n = len(codes)
    if n not in lists:
        lists[n] = lexicon.probability_order(checked_length(n), blanks=blanks)
    rank = lists[n].rank_of(alpha)
    entry = lists[n][rank - 1] if rank is not None else None
    questions[alpha] = Question("anagrams", alpha, entry.words if entry else (), rank)


def hook_questions(lexicon: Lexicon, words: Sequence[str]) -> list[Question]:
    """A hook question for each of ``words``: every word one tile before or
    after it makes (`Lexicon.hooks`: front hooks first, each group in the
    alphabet's order)."""
    alphabet = lexicon.alphabet

    def spelled(text: str) -> str:  # the hooked word as the questions write words
        return alphabet.format(alphabet.word(text), brackets=True)

    def tile(label: str) -> str:  # a tile of several letters stays one tile
        return f"[{label}]" if len(label) > 1 else label

    out = []
    for word in _canonical(lexicon, words, "hooks"):
        hooks = lexicon.hooks(word)
        out.append(Question("hooks", word, tuple(
            [spelled(tile(h) + word) for h in hooks.front]
            + [spelled(word + tile(h)) for h in hooks.back])))
    return out


def judge_questions(lexicon: Lexicon, length: int, count: int, *, seed: int = 0,
                    ranks: tuple[int, int | None] = (1, None)) -> list[Question]:
    """``count`` word judge questions of ``length`` tiles, about half of them
    phonies: a valid word of the alphagrams ranked ``ranks``, or a phony made
    from one by changing one tile to another drawn by its copies in the bag,
    kept only when no word of the lexicon is spelled so. The same ``seed``,
    the same questions."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_QUESTIONS:
        raise RacketyError(f"count {count!r}: expected a whole number from 1 to "
                           f"{MAX_QUESTIONS:,}")
    entries = lexicon.probability_order(checked_length(length)).ranks(*ranks)
    if not entries:
        raise RacketyError(f"judge: no word of {length} tiles in those ranks")
    rng = random.Random(seed)
    alphabet = lexicon.alphabet
    letters = [t.code for t in alphabet.tiles[1:] for _ in range(t.count)] \
        or list(range(1, alphabet.size))
    out: list[Question] = []
    for _ in range(100 * count):
        if len(out) == count:
            break
        word = rng.choice(rng.choice(entries).words)
        if rng.random() < 0.5:
            out.append(Question("judge", word, (VALID,)))
            continue
        codes = alphabet.word(word)
        for _ in range(50):  # a one-tile change that is no word
            changed = list(codes)
            changed[rng.randrange(len(changed))] = rng.choice(letters)
            if changed != codes and changed not in lexicon:
                out.append(Question("judge", alphabet.format(changed, brackets=True),
                                    (PHONY,)))
                break
    if len(out) < count:  # every tile changed makes a word: a lexicon of nearly all strings
        raise RacketyError(f"judge: no phony of {length} tiles found in this lexicon")
    return out


def question_for(lexicon: Lexicon, kind: str, prompt: str) -> Question:
    """The question of a study item: ``kind`` (`KINDS`) about ``prompt`` (an
    alphagram or rack, a word), its answers the lexicon's today."""
    if kind == "anagrams":
        return anagram_questions(lexicon, words=[prompt])[0]
    if kind == "hooks":
        return hook_questions(lexicon, [prompt])[0]
    if kind == "judge":
        return Question("judge", prompt, (VALID,) if prompt in lexicon else (PHONY,))
    if kind == "puzzle":  # a position of the player's: the judge's answers, cut again
        from rackety.game.board import Board
        from rackety.study.puzzles import cut

        # any lead will do: the answers are the same whatever margin cut it
        found = cut(Board.from_cgp(prompt), lexicon, source="deck", margin=0.0)
        if found is None:
            raise RacketyError("study item: the position is no longer a puzzle")
        return Question("puzzle", prompt, found.answers)
    raise RacketyError(f"study item kind {clip(kind, 40)!r}: expected one of {', '.join(KINDS)}")
