"""How often self-play plays each word: word study's playability order
(docs/STUDY.md). Compiled games of the lexicon's static player against
itself (`rackety.experiments.selfplay.Compiled`), the main word of every
play counted, for every word of the lexicon in its order
(`rackety.lexicon.Lexicon.word_tiles`). The counts are kept in the lexicon
cache (`rackety.lexicon.cache.store_array`) by the lexicon's contents, the
games and the seed, so a second ask reads them back."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rackety.alphabet import BLANK_FLAG
from rackety.errors import RacketyError
from rackety.experiments.autoplay import game_seed
from rackety.experiments.selfplay import EV_PLAY, Compiled
from rackety.experiments.training import content_key
from rackety.kernels.fields import M_LEN
from rackety.lexicon import Lexicon
from rackety.lexicon.cache import lookup_array, store_array

#: the games a playability count plays by default (about 25 s of one core for TWL06)
DEFAULT_GAMES = 10_000
#: the most games one count plays
MAX_GAMES = 10_000_000
#: the counts' format in the cache: bumped when they are made differently
VERSION = 1


def plays(lexicon: Lexicon, *, games: int = DEFAULT_GAMES, seed: int = 0,
          progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """How many times ``games`` games of the static player against itself
    (bags of ``seed``) played each word of ``lexicon`` as a play's main word:
    float64, one a word, in `Lexicon.word_tiles` order. ``progress(done,
    games)`` as the games are played (not when the cache has them)."""
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise RacketyError(f"playability: games {games!r}: expected 1 to {MAX_GAMES:,}")
    flat, lens = lexicon.word_tiles()
    name = f"plays-{VERSION}-{content_key(lexicon).hex()}-{games}-{seed}"
    cached = lookup_array(name, len(lens))
    if cached is not None:
        return cached
    starts = np.cumsum(lens) - lens
    index = {flat[s:s + n].astype(np.uint8).tobytes(): i
             for i, (s, n) in enumerate(zip(starts.tolist(), lens.tolist(), strict=True))}
    from rackety.players import make_player

    players = [make_player("static", lexicon), make_player("static", lexicon)]
    compiled = Compiled(lexicon, players, best_scores=False)
    counts = np.zeros(len(lens))
    mask = np.int64(~BLANK_FLAG & 0xFF)
    for g in range(games):
        game = compiled.play(game_seed(seed, 2 * g))  # a bag of its own (2g + 1 shares it)
        for i in np.flatnonzero(game.kind == EV_PLAY).tolist():
            word = (game.tiles[i, :int(game.meta[i, M_LEN])] & mask).astype(np.uint8)
            hit = index.get(word.tobytes())
            if hit is not None:
                counts[hit] += 1
        if progress is not None and ((g + 1) % 100 == 0 or g + 1 == games):
            progress(g + 1, games)
    store_array(name, counts)
    return counts
