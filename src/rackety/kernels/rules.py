"""The rules, compiled: one game state (`rackety.kernels.fields.GameState`)
and the kernels that play on it: a new game, the draw, a placement (the board
in both orientations, its cross sets recomputed lane by lane, the rack, the
score), an exchange with the bag's shuffle, a pass, and the end of a turn
(the game ends when a player plays out with the bag empty, or after too many
scoreless turns). The referee (`rackety.game.referee.Game`), the compiled
self-play and leave training, the simulation's rollouts, the endgame (which
places tiles with `place`) and the pre-endgame all play by these.

The cross sets a state keeps are those of the graph ``kwg`` the kernels are
given, ``graph`` saying what it holds (`rackety.kernels.crosssets`): the
lexicon's words, or under WordSmog their alphagrams.

A rack is ``racks[seat, :n]`` (codes, 0 the blank) in the order drawn; the
bag is ``bag[:n]``, drawn from the end. The shuffle is splitmix64 (Steele, Lea
and Flood 2014) driving Fisher-Yates: the same seed, the same game, whichever
caller shuffles. The end of the game is docs/FORMATS.md section 7: a player who
plays out gains the face value of the other racks, twice with the ``twice``
rule (``G_TWICE``), otherwise once while each other player loses their own;
after the scoreless turns every player loses the face value of their rack.
"""

from __future__ import annotations

import numpy as np

from rackety.kernels.crosssets import cross_all, root_nodes, update_after_move
from rackety.kernels.fields import (
    END_NONE,
    END_OUT,
    END_SCORELESS,
    G_BINGO,
    G_FULL_MASK,
    G_MAX_SCORELESS,
    G_RACK_SIZE,
    G_TWICE,
    GS_BAG,
    GS_EMPTY,
    GS_OVER,
    GS_PLAYERS,
    GS_RACK,
    GS_SCORE,
    GS_TURN,
    GS_ZERO,
    M_DIR,
    M_FIRST,
    M_LANE,
    M_LEN,
    M_SCORE,
    M_THROUGH,
    X_HAS,
    X_SCORE,
)
from rackety.kernels.jit import njit

U64 = np.uint64
GOLDEN = 0x9E3779B97F4A7C15


@njit(cache=True, nogil=True)
def splitmix(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """One step of splitmix64: the next state and a 64-bit output."""
    state = state + U64(GOLDEN)
    z = state
    z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
    return state, z ^ (z >> U64(31))


@njit(cache=True, nogil=True)
def shuffle(items: np.ndarray, n: int, state: np.uint64) -> np.uint64:
    """Fisher-Yates shuffle of ``items[:n]`` in place from ``state``; the new state."""
    for i in range(n - 1, 0, -1):
        state, z = splitmix(state)
        j = np.int64(z % U64(i + 1))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp
    return state


@njit(cache=True, nogil=True)
def remove_first(rack: np.ndarray, n: int, tile: int) -> int:
    """Remove the first copy of ``tile`` from ``rack[:n]`` (as `list.remove`);
    the new length (``n`` when the rack has no such tile)."""
    for i in range(n):
        if rack[i] == tile:
            for j in range(i, n - 1):
                rack[j] = rack[j + 1]
            return n - 1
    return n


@njit(cache=True, nogil=True)
def rack_value(rack, rn, points) -> int:
    """Face value of ``rack[:rn]`` (blanks 0): what a rack counts at the end."""
    value = 0
    for i in range(rn):
        value += points[rack[i]]
    return value


@njit(cache=True, nogil=True, inline="always")
def out_spread(left: int) -> int:
    """What playing out with the bag empty moves a two-player spread by, the
    other rack's face value being ``left``: twice it under both play-out rules
    (``G_TWICE``: the player gains ``2 left``; otherwise the player gains
    ``left`` and the other loses ``left``). The endgame and static equity value
    going out by it; `end_turn` writes the scores."""
    return 2 * left


@njit(cache=True, nogil=True, inline="always")
def pass_ends(rules: np.ndarray, passes: int) -> bool:
    """Whether a pass ends a two-player endgame after ``passes`` (0 or 1)
    passes in a row: the rules' scoreless turns are reached
    (``G_MAX_SCORELESS``), or it is the second pass in a row, after which the
    position only repeats (so the searches take it as the scoreless end, each
    player losing their rack's face value, as the oracle's endgames do)."""
    return passes >= 1 or passes + 1 >= rules[G_MAX_SCORELESS]


# ------------------------------------------------------------- the state
@njit(cache=True, nogil=True)
def draw(gs, seat, rack_size) -> int:
    """Fill the rack of ``seat`` from the end of the bag; the tiles on it."""
    rn = gs.ints[GS_RACK + seat]
    bag_n = gs.ints[GS_BAG]
    while rn < rack_size and bag_n > 0:
        bag_n -= 1
        gs.racks[seat, rn] = gs.bag[bag_n]
        rn += 1
    gs.ints[GS_RACK + seat] = rn
    gs.ints[GS_BAG] = bag_n
    return rn


@njit(cache=True, nogil=True)
def start(kwg, graph, consts, gs, bag, rng) -> None:
    """A new game in ``gs``: the board empty with its cross sets, the bag
    ``bag`` (drawn from the end), the shuffle's state ``rng``, every score
    and count 0, seat 0 to move, each seat's rack drawn in seat order."""
    points = consts.points
    rules = consts.rules
    gs.tiles[:] = 0
    cross_all(kwg, graph, gs.tiles, points, rules[G_FULL_MASK], gs.cross)
    players = gs.ints[GS_PLAYERS]
    gs.ints[:] = 0
    gs.ints[GS_PLAYERS] = players
    gs.ints[GS_EMPTY] = 1
    for i in range(bag.shape[0]):
        gs.bag[i] = bag[i]
    gs.ints[GS_BAG] = bag.shape[0]
    gs.rng[0] = rng
    for seat in range(players):
        draw(gs, seat, rules[G_RACK_SIZE])


@njit(cache=True, nogil=True)
def place(kwg, graph, points, full, tiles, cross, meta, otiles, chosen, update) -> None:
    """Put placement ``chosen`` (a row of the generator's ``meta``/``otiles``) on
    the board ``tiles`` (both orientations) and, unless ``update`` is false,
    recompute the cross sets ``cross`` of the lanes it touched (`recross`;
    ``points`` of every code, ``full`` the mask of every letter: `G_FULL_MASK`)."""
    d = meta[chosen, M_DIR]
    lane = meta[chosen, M_LANE]
    first = meta[chosen, M_FIRST]
    through = meta[chosen, M_THROUGH]
    for j in range(meta[chosen, M_LEN]):
        if not (through >> j) & 1:
            code = otiles[chosen, j]
            tiles[d, lane, first + j] = code
            tiles[1 - d, first + j, lane] = code
    if update:  # once a turn: the root table made here
        recross(kwg, graph, points, full, tiles, cross, meta, chosen, root_nodes(kwg, graph))


@njit(cache=True, nogil=True)
def recross(kwg, graph, points, full, tiles, cross, meta, chosen, roots) -> None:
    """The cross sets of the lanes placement ``chosen`` touched, recomputed on
    ``tiles``, which hold it (`place` without its update, then this, is how the
    endgame updates only the positions it generates moves in; ``roots``:
    `rackety.kernels.crosssets.root_nodes` of the graph, the endgame's made
    once a solve)."""
    first = meta[chosen, M_FIRST]
    update_after_move(kwg, graph, tiles, meta[chosen, M_DIR], meta[chosen, M_LANE], first,
                      first + meta[chosen, M_LEN] - 1, points, full, cross, roots)


@njit(cache=True, nogil=True)
def score(consts, gs, meta, otiles, chosen) -> int:
    """The score of placement ``chosen`` (a row of ``meta``/``otiles``, its
    ``M_SCORE`` not read) on the state's board, as the generator scores it: from
    the cross sets the state keeps (``X_SCORE``, ``X_HAS``), the new tiles times
    their letter premiums, tiles on the board at face value, the main word times
    the word premiums under new tiles, each cross word a new tile forms, and the
    bingo bonus for a full rack; a one-tile main word scores only its cross
    word. -1 when the placement does not fit the board: a square it places on
    is taken, or one it plays through does not hold its tile (its squares must
    lie on the board). The referee scores every move it applies by this
    (`rackety.game.board.Board.score` is the same rule on a `Board`)."""
    d = meta[chosen, M_DIR]
    lane = meta[chosen, M_LANE]
    first = meta[chosen, M_FIRST]
    through = meta[chosen, M_THROUGH]
    length = meta[chosen, M_LEN]
    points = consts.points
    lm = consts.lm2[d, lane]
    wm = consts.wm2[d, lane]
    side_score = gs.cross[X_SCORE, d, lane]
    side_has = gs.cross[X_HAS, d, lane]
    board = gs.tiles[d, lane]
    main = 0
    mult = 1
    sides = 0
    placed = 0
    for j in range(length):
        p = first + j
        held = np.int64(board[p])
        if (through >> j) & 1:
            if held & 0x7F != np.int64(otiles[chosen, j]) & 0x7F or held == 0:
                return -1
            main += points[held]
            continue
        if held != 0:
            return -1
        value = points[np.int64(otiles[chosen, j])] * lm[p]
        w = wm[p]
        main += value
        mult *= w
        placed += 1
        if side_has[p] != 0:
            sides += (value + side_score[p]) * w
    total = sides if length == 1 else main * mult + sides
    if placed == consts.rules[G_RACK_SIZE]:
        total += consts.rules[G_BINGO]
    return total


@njit(cache=True, nogil=True)
def play(kwg, graph, consts, gs, meta, otiles, chosen, update) -> int:
    """The player to move plays placement ``chosen`` for its ``M_SCORE``: the
    tiles on the board (`place`), off the rack, the score added, the
    scoreless count reset, the rack refilled. Returns the tiles on the rack."""
    seat = gs.ints[GS_TURN]
    place(kwg, graph, consts.points, consts.rules[G_FULL_MASK], gs.tiles, gs.cross, meta, otiles,
          chosen, update)
    rn = gs.ints[GS_RACK + seat]
    through = meta[chosen, M_THROUGH]
    for j in range(meta[chosen, M_LEN]):
        if not (through >> j) & 1:
            code = np.int64(otiles[chosen, j])
            rn = remove_first(gs.racks[seat], rn, 0 if code & 0x80 else code)
    gs.ints[GS_RACK + seat] = rn
    gs.ints[GS_SCORE + seat] += meta[chosen, M_SCORE]
    gs.ints[GS_ZERO] = 0
    gs.ints[GS_EMPTY] = 0
    return draw(gs, seat, consts.rules[G_RACK_SIZE])


@njit(cache=True, nogil=True)
def exchange(consts, gs, traded, m) -> None:
    """The player to move trades ``traded[:m]``: it draws first, then the tiles
    go back into the bag and the bag is shuffled; a scoreless turn."""
    seat = gs.ints[GS_TURN]
    rn = gs.ints[GS_RACK + seat]
    for i in range(m):
        rn = remove_first(gs.racks[seat], rn, traded[i])
    gs.ints[GS_RACK + seat] = rn
    draw(gs, seat, consts.rules[G_RACK_SIZE])
    bag_n = gs.ints[GS_BAG]
    for i in range(m):
        gs.bag[bag_n] = traded[i]
        bag_n += 1
    gs.ints[GS_BAG] = bag_n
    gs.rng[0] = shuffle(gs.bag, bag_n, gs.rng[0])
    gs.ints[GS_ZERO] += 1


@njit(cache=True, nogil=True)
def pass_turn(gs) -> None:
    """The player to move passes (or loses the turn): a scoreless turn."""
    gs.ints[GS_ZERO] += 1


@njit(cache=True, nogil=True)
def end_turn(consts, gs, played) -> int:
    """After the turn of the player to move: the end of the game when the rules
    say so (`END_OUT` when the turn, a placement if ``played``, emptied the rack
    with the bag empty; `END_SCORELESS` after the rules' scoreless turns), its
    points added and ``GS_OVER`` set; otherwise (`END_NONE`) the next seat is to
    move. The one kernel that ends a game (`rackety.game.rules.Rules.ending` is
    its Python twin, for records)."""
    rules = consts.rules
    points = consts.points
    seat = gs.ints[GS_TURN]
    players = gs.ints[GS_PLAYERS]
    if played and gs.ints[GS_RACK + seat] == 0 and gs.ints[GS_BAG] == 0:
        left = 0
        for other in range(players):
            if other != seat:
                left += rack_value(gs.racks[other], gs.ints[GS_RACK + other], points)
        if rules[G_TWICE] != 0:
            gs.ints[GS_SCORE + seat] += 2 * left
        else:
            gs.ints[GS_SCORE + seat] += left
            for other in range(players):
                if other != seat:
                    gs.ints[GS_SCORE + other] -= rack_value(gs.racks[other],
                                                            gs.ints[GS_RACK + other], points)
        gs.ints[GS_OVER] = END_OUT
        return END_OUT
    if gs.ints[GS_ZERO] >= rules[G_MAX_SCORELESS]:
        for s in range(players):
            gs.ints[GS_SCORE + s] -= rack_value(gs.racks[s], gs.ints[GS_RACK + s], points)
        gs.ints[GS_OVER] = END_SCORELESS
        return END_SCORELESS
    gs.ints[GS_TURN] = (seat + 1) % players
    return END_NONE
