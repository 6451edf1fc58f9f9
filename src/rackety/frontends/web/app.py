"""The web app's HTTP side: FastAPI routes over `rackety.frontends.web.service.Service`.

``create_app(db_path)`` makes the app; ``rackety serve`` runs it with uvicorn.
Every route validates its input with pydantic (sizes included) and answers a
bad request with a 4xx whose JSON body is ``{"detail": "one line"}``: 400 for
a value the engine refuses (a malformed CGP, an illegal move), 404 for a game
that does not exist, 409 for an action not allowed now, 413 for a body over
`MAX_BODY` bytes, 422 for a request of the wrong shape.
"""

from __future__ import annotations

import logging
import mimetypes
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rackety.errors import RacketyError, clip, one_line
from rackety.frontends.common import Lexicons
from rackety.frontends.report import CSP
from rackety.frontends.shapes import (
    EndgameShape,
    InferenceShape,
    MovesShape,
    PreEndgameShape,
    RecordAnalysisShape,
    SimulationShape,
)
from rackety.frontends.web.searches import ID_PATTERN, SearchesBusyError, SearchNotFoundError
from rackety.frontends.web.service import (
    MAX_CLOCK,
    MAX_SEARCH_SECONDS,
    MIN_CLOCK,
    MIN_SEARCH_SECONDS,
    ConflictError,
    NotFoundError,
    Service,
)
from rackety.frontends.web.store import Store
from rackety.game.board import MAX_PLAYERS, SCORE_LIMIT
from rackety.game.rules import DEFAULT_CHALLENGE, ChallengeRule, Variant

#: the app's page: its script and styles come from this server only (no inline
#: script runs), it talks to this server only, and no other site may frame it
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; "
                               "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                               "object-src 'none'; base-uri 'none'; form-action 'self'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff"}
MAX_BODY = 1_000_000  # bytes of a request body
MAX_CGP = 4_000
MAX_GCG = 500_000
MAX_TILES = 1_000  # tiles an edited board may hold (more than any distribution has)
log = logging.getLogger("rackety.frontends.web")


# ------------------------------------------------------------------ models
class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorBody(BaseModel):
    detail: str = Field(description="What is wrong, in one line.")
    errors: list[dict[str, Any]] | None = None


class Health(BaseModel):
    status: Literal["ok"]


class AnalyzeRequest(Strict):
    cgp: str = Field(max_length=MAX_CGP, description="The position, one CGP line.")
    lexicon: str | None = Field(None, max_length=64,
                                description="An offered lexicon (default: the CGP's lex, "
                                            "else TWL06).")
    top: int = Field(10, ge=0, le=1000, description="How many moves, best equity first.")
    leave: str | None = Field("static", max_length=64,
                              description="Leave values: static (the lexicon's shipped "
                                          "table, H3 where there is none), none, h1, h2, h3 "
                                          "or leaves:NAME.")
    detail: bool = Field(False, description="Also the board and each move's squares.")


class PlacedTile(Strict):
    row: int = Field(ge=0, le=40)
    col: int = Field(ge=0, le=40)
    letter: str = Field(min_length=1, max_length=8)
    blank: bool = False


class SimulateRequest(Strict):
    cgp: str = Field(max_length=MAX_CGP)
    lexicon: str | None = Field(None, max_length=64)
    candidates: int = Field(10, ge=1, le=40)
    seconds: float = Field(2.0, gt=0, le=60)
    plies: int = Field(2, ge=0, le=6)
    iterations: int | None = Field(None, ge=1, le=100_000,
                                   description="Stop after this many rollouts a candidate "
                                               "(default: when the seconds are up).")
    seed: int = Field(0, ge=0, le=2**62, description="Seed of the rollouts.")


class InferRequest(Strict):
    cgp: str = Field(max_length=MAX_CGP,
                     description="The position before the play: its player to move made it "
                                 "(their rack unknown, or the tiles known to be on it).")
    move: str = Field(min_length=1, max_length=200,
                      description="The play: 8D HALTED, or an exchange of N tiles: exchange N.")
    lexicon: str | None = Field(None, max_length=64)
    margin: float = Field(0.0, ge=0, le=100,
                          description="Keep a rack when the play is within this many points "
                                      "of its best static equity.")
    leave: str | None = Field("static", max_length=64,
                              description="Leave values: static, h1, h2, h3 or leaves:NAME.")
    top: int = Field(20, ge=1, le=1000, description="How many leaves, likeliest first.")


class PositionRequest(Strict):
    cgp: str = Field(max_length=MAX_CGP, description="The position, one CGP line.")
    lexicon: str | None = Field(None, max_length=64,
                                description="An offered lexicon: a CGP that names no alphabet "
                                            "(ld) is read in this lexicon's.")


Score = Annotated[int, Field(ge=-SCORE_LIMIT, le=SCORE_LIMIT)]
RackText = Annotated[str, Field(max_length=40)]


class PositionEdit(Strict):
    cgp: str | None = Field(None, max_length=MAX_CGP,
                            description="The position edited, one CGP line (default: an empty "
                                        "board in the lexicon's alphabet).")
    lexicon: str | None = Field(None, max_length=64,
                                description="As for /api/position.")
    tiles: list[PlacedTile] | None = Field(None, max_length=MAX_TILES,
                                           description="Every tile on the board, in place of "
                                                       "the position's (default: its own).")
    racks: list[RackText] | None = Field(None, min_length=1, max_length=MAX_PLAYERS,
                                         description="The racks, the player to move's first, "
                                                     "as on a rack: AEI?[CH] (default: the "
                                                     "position's).")
    scores: list[Score] | None = Field(None, min_length=1, max_length=MAX_PLAYERS,
                                       description="The scores, as the racks (default: the "
                                                   "position's).")


class GcgAnalyzeRequest(Strict):
    gcg: str = Field(max_length=MAX_GCG)
    lexicon: str | None = Field(None, max_length=64)
    leave: str | None = Field("static", max_length=64)


class Opponent(Strict):
    level: str = Field(default="static", max_length=64,
                       description="static, greedy, h1, h2, h3, sim, best or leaves:NAME (see "
                                   "/api/options).")
    seconds: float | None = Field(default=None, description="Time budget a move of a sim or "
                                                            "best player.")


class NewGame(Strict):
    lexicon: str | None = Field(None, max_length=64)
    layout: str = Field("standard15", max_length=64)
    human: str = Field("you", min_length=1, max_length=40)
    opponents: list[Opponent] = Field(default_factory=lambda: [Opponent()], min_length=1,
                                      max_length=3)
    challenge: ChallengeRule = DEFAULT_CHALLENGE
    variant: Variant = "classic"
    seed: int | None = Field(None, ge=0, le=2**62)
    human_first: bool = True
    clock: float | None = Field(None, ge=MIN_CLOCK, le=MAX_CLOCK,
                                description="A game clock: the seconds each player has for "
                                            "the game (300, 600, 1500), 10 points off per "
                                            "minute or part past it at the end; the "
                                            "championship level (best) then plays on it. "
                                            "Default: no clock.")


class PlayRequest(Strict):
    move: str | None = Field(None, max_length=200, description="A move in notation, 8H PANDY.")
    tiles: list[PlacedTile] | None = Field(None, min_length=1, max_length=21,
                                           description="Or the tiles placed, square by square.")


class ExchangeRequest(Strict):
    tiles: str = Field(min_length=1, max_length=40, description="The tiles, ? for a blank.")


class ImportRequest(Strict):
    gcg: str = Field(max_length=MAX_GCG)
    lexicon: str | None = Field(None, max_length=64)
    play_as: str | None = Field(None, max_length=40,
                                description="Go on with the game as this player (nickname or "
                                            "name); without it the record is stored to view.")
    opponents: list[Opponent] | None = Field(None, max_length=3,
                                             description="Levels of the other players "
                                                         "(default h3 each), with play_as.")
    challenge: ChallengeRule = DEFAULT_CHALLENGE


class StudyAnswerRequest(Strict):
    player: str = Field(min_length=1, max_length=40, description="Whose deck: a person's name.")
    item: int = Field(ge=1, le=2**62, description="The item answered (from /api/study/next).")
    reply: str = Field(max_length=2000, description="The words (or y/n for the word judge).")
    seconds: float | None = Field(None, ge=0, le=86_400,
                                  description="The seconds the answer took (rates the review).")


class PuzzleAnswerRequest(Strict):
    player: str = Field(min_length=1, max_length=40, description="Who: a person's name.")
    puzzle: int = Field(ge=1, le=2**62, description="The puzzle (from /api/puzzles/next).")
    reply: str = Field(max_length=200, description="The move in players' notation, or "
                                                   "challenge.")
    seconds: float | None = Field(None, ge=0, le=86_400, description="The seconds it took.")


class SearchRequest(Strict):
    cgp: str | None = Field(None, max_length=MAX_CGP,
                            description="The position, one CGP line (or gcg with turn).")
    gcg: str | None = Field(None, max_length=MAX_GCG, description="A game record, as text.")
    turn: int | None = Field(None, ge=1, le=100_000,
                             description="With gcg: the position before this event (1-based, "
                                         "as the GCG tab numbers the turns).")
    lexicon: str | None = Field(None, max_length=64,
                                description="An offered lexicon (default: the position's or "
                                            "record's, else TWL06).")
    seconds: float = Field(5.0, ge=MIN_SEARCH_SECONDS, le=MAX_SEARCH_SECONDS,
                           description="Time budget of the search.")
    wait: bool = Field(False, description="Answer when the search has finished, not at once.")


class EndgameRequest(SearchRequest):
    depth: int | None = Field(None, ge=1, le=60,
                              description="Search at most this many plies (default: until "
                                          "exact or the time is up).")


class PreEndgameRequest(SearchRequest):
    candidates: int = Field(10, ge=1, le=30,
                            description="How many of the best static placements to solve.")


class Unset(BaseModel):
    """A model whose null fields are left out of the answer (the fields of a
    result inside it keep theirs: a result's form is its shape's)."""

    # no return type: pydantic would take it for the schema of the model
    @model_serializer(mode="wrap")
    def _set_only(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]  # noqa: ANN202
        return {k: v for k, v in handler(self).items() if v is not None}


class SearchProgress(Unset):
    done: int | None = None
    total: int | None = None
    what: str


class SearchState(Unset):
    id: str
    kind: Literal["endgame", "preendgame", "analysis"]
    status: Literal["running", "done", "stopped", "failed"]
    seconds: float
    elapsed: float
    stopping: bool
    progress: SearchProgress
    error: str | None = None
    position: dict[str, Any] | None = None  # an endgame's or pre-endgame's
    lexicon: str
    turn: int | None = None


class EndgameSearch(SearchState):
    kind: Literal["endgame"]
    result: EndgameShape | None = None


class PreEndgameSearch(SearchState):
    kind: Literal["preendgame"]
    result: PreEndgameShape | None = None


class AnalysisSearch(SearchState):
    kind: Literal["analysis"]
    result: RecordAnalysisShape | None = None


#: any search's state, told apart by its kind
AnySearch = Annotated[EndgameSearch | PreEndgameSearch | AnalysisSearch,
                      Field(discriminator="kind")]


GameId = Annotated[int, PathParam(ge=1, le=2**62, description="A game's id.")]
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "A value the engine refuses."},
    413: {"model": ErrorBody, "description": "The request body is too large."},
    422: {"model": ErrorBody, "description": "The request does not have the right shape."},
}
SearchId = Annotated[str, PathParam(pattern=ID_PATTERN, max_length=16,
                                     description="A search's id.")]
SEARCH_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    409: {"model": ErrorBody, "description": "Too many searches running."},
}
GAME_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    404: {"model": ErrorBody, "description": "No such game."},
    409: {"model": ErrorBody, "description": "Not allowed now (not your turn, game over)."},
}


# -------------------------------------------------------------- middleware
class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, whether the client
    says so in Content-Length or sends them chunked."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = False
                if too_big:
                    await _too_large(scope, receive, send, self.limit)
                    return
        seen = 0
        refused = False

        async def limited() -> Message:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    # answer now; the app sees the client go away and its reply is dropped
                    refused = True
                    await _too_large(scope, receive, send, self.limit)
                    return {"type": "http.disconnect"}
            return message

        async def guarded(message: Message) -> None:
            if not refused:
                await send(message)

        try:
            await self.app(scope, limited, guarded)
        except Exception:
            if not refused:
                raise


async def _too_large(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
    response = JSONResponse({"detail": f"request body over {limit:,} bytes"}, status_code=413)
    await response(scope, receive, send)


# --------------------------------------------------------------------- app
def _one_line(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(clip(x, 40) for x in err.get("loc", ()) if x != "body") or "body"
        parts.append(f"{where}: {clip(err.get('msg', 'invalid'), 100)}")
    return one_line("; ".join(parts) or "invalid request")


def _clean(errors: list[Any]) -> list[dict[str, Any]]:
    """Pydantic's errors, bounded: a key or a message a client sent is clipped."""
    out = []
    for err in errors[:20]:
        out.append({"loc": [clip(x, 40) for x in err.get("loc", ())][:10],
                    "msg": clip(err.get("msg", ""), 200), "type": clip(err.get("type", ""), 60)})
    return out


def create_app(db_path: str | Path, *, lexicons: list[str] | None = None,
               leaves: dict[str, str] | None = None, warm: bool = True,
               search_seconds: float | None = None) -> FastAPI:
    """The app over the store at ``db_path`` (created if missing). ``lexicons``:
    extra word lists or KWG files to offer (``SOURCE`` or ``SOURCE:ALPHABET``);
    ``leaves``: leave tables to offer as levels, by name; ``warm`` loads the
    default lexicon and compiles the kernels in the background at start;
    ``search_seconds``: each endgame or pre-endgame search an analysis makes
    (default `service.EXACT_SECONDS`)."""
    store = Store(db_path)
    service = Service(store, Lexicons(lexicons or []), leaves,
                      **({} if search_seconds is None else {"search_seconds": search_seconds}))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if warm and service.lexicons.default:
            threading.Thread(target=_warm, args=(service,), daemon=True).start()
        service.start_lessons()
        yield  # the store stays open: it commits every change as it is made
        service.stop_lessons()

    app = FastAPI(title="rackety", version=_version(),
                  description="Play and analyse crossword games with the rackety engine.",
                  lifespan=lifespan,
                  docs_url=None, redoc_url=None)  # their pages load scripts from a CDN
    app.state.service = service

    @app.exception_handler(NotFoundError)
    async def not_found(_request: Request, exc: NotFoundError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @app.exception_handler(SearchNotFoundError)
    async def no_search(_request: Request, exc: SearchNotFoundError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @app.exception_handler(SearchesBusyError)
    async def busy(_request: Request, exc: SearchesBusyError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=409)

    @app.exception_handler(ConflictError)
    async def conflict(_request: Request, exc: ConflictError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=409)

    @app.exception_handler(RacketyError)
    async def refused(_request: Request, exc: RacketyError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _one_line(exc), "errors": _clean(list(exc.errors()))},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(getattr(exc, "headers", None) or {})
        if exc.status_code == 405:  # every method the path has, not one route's
            headers["Allow"] = ", ".join(_allowed(app, request.scope))
        return JSONResponse({"detail": str(exc.detail)}, status_code=exc.status_code,
                            headers=headers or None)

    # ----------------------------------------------------------- page
    static = resources.files("rackety.frontends.web") / "static"

    @app.get("/", include_in_schema=False)
    def index() -> Response:
        page = Path(str(static)) / "index.html"
        if not page.exists():
            return PlainTextResponse("rackety: the page is not installed", status_code=404)
        return FileResponse(page, media_type="text/html", headers=PAGE_HEADERS)

    if Path(str(static)).is_dir():
        # the page's modules load only as JavaScript, whatever the system's MIME table says
        mimetypes.add_type("text/javascript", ".js")
        app.mount("/static", StaticFiles(directory=str(static)), name="static")

    # ------------------------------------------------------------ api
    @app.get("/api/health", response_model=Health, tags=["scripts"])
    def health() -> dict[str, str]:
        """200 with ``{"status": "ok"}`` while the server runs."""
        return {"status": "ok"}

    @app.get("/api/options", tags=["app"])
    def options() -> dict[str, Any]:
        """Lexicons, board layouts, computer levels and challenge rules on offer."""
        return service.options()

    @app.post("/api/analyze", response_model=MovesShape,
              responses=ERRORS, tags=["scripts"])
    def analyze(body: AnalyzeRequest) -> MovesShape:
        """The moves of the player to move: ``count`` tile placements (as
        ``rackety moves``) and the ``top`` moves as the judge ranks them: by
        equity (score + leave), or with the bag empty by the exact endgame and
        with one or two tiles in it by the pre-endgame (``valued_by``)."""
        return service.analyze(body.cgp, body.lexicon, body.top, body.leave, body.detail)

    @app.post("/api/simulate", response_model=SimulationShape, responses=ERRORS,
              tags=["analysis"])
    def simulate(body: SimulateRequest) -> SimulationShape:
        """Simulate the best static candidates for ``seconds`` (or ``iterations``
        rollouts a candidate): ranked by win %, then equity (as ``rackety sim
        --json``)."""
        return service.simulate(body.cgp, body.lexicon, body.candidates, body.seconds,
                                body.plies, body.iterations, body.seed)

    @app.post("/api/infer", response_model=InferenceShape, responses=ERRORS, tags=["analysis"])
    def infer(body: InferRequest) -> dict[str, Any]:
        """What the player to move kept when they made ``move``: every rack the
        unseen tiles allow, weighted by its draw probability, kept when the
        static player makes the play from it (within ``margin``); the
        likeliest leaves first (as ``rackety infer --json``)."""
        return service.infer(body.cgp, body.move, body.lexicon, body.margin, body.leave,
                             body.top)

    @app.post("/api/position", responses=ERRORS, tags=["analysis"])
    def position(body: PositionRequest) -> dict[str, Any]:
        """A CGP position as the page draws it: its CGP as the server writes it,
        the board, the racks, the scores and the tiles in the bag."""
        return service.page_position(body.cgp, body.lexicon)

    @app.post("/api/position/edit", responses=ERRORS, tags=["analysis"])
    def position_edit(body: PositionEdit) -> dict[str, Any]:
        """A position with its board, racks or scores replaced (what the page's
        board editor sends), answered as ``/api/position`` answers: its CGP
        written by the server, which the page analyses."""
        tiles = None if body.tiles is None else [(t.row, t.col, t.letter, t.blank)
                                                 for t in body.tiles]
        return service.edit_position(body.cgp, body.lexicon, tiles, body.racks, body.scores)

    @app.post("/api/gcg/analyze", response_model=RecordAnalysisShape, responses=ERRORS,
              tags=["analysis"])
    def gcg_analyze(body: GcgAnalyzeRequest) -> RecordAnalysisShape:
        """Every turn of a GCG record with the best move and the equity lost (as
        each game of ``rackety analyze --json``)."""
        return service.analyze_gcg(body.gcg, body.lexicon, body.leave)

    @app.post("/api/gcg/analysis", response_model=AnalysisSearch,
              responses=SEARCH_ERRORS, tags=["analysis"])
    def gcg_analysis(body: GcgAnalyzeRequest) -> dict[str, Any]:
        """``/api/gcg/analyze`` as a search: answers its state at once; poll it at
        ``/api/searches/{id}`` for the turns assessed so far, then the analysis
        (``result``, the form ``/api/gcg/analyze`` answers); a stop ends it
        between turns (those left not assessed)."""
        return service.analyze_gcg_search(body.gcg, body.lexicon, body.leave).state()

    # ------------------------------------------------ endgames, pre-endgames
    def _answer(search: Any, wait: bool) -> dict[str, Any]:
        if wait:  # the budget, and time to compile the kernels on a first run
            search.finished.wait(search.seconds + 300.0)
        state: dict[str, Any] = search.state()
        return state

    @app.post("/api/endgame", response_model=EndgameSearch, responses=SEARCH_ERRORS,
              tags=["analysis"])
    def endgame(body: EndgameRequest) -> dict[str, Any]:
        """Start the endgame of a position or a record's turn (two players, the
        bag empty; the opponent's rack, when not given, is the unseen tiles):
        the value for the player to move and a principal variation, exact or
        the deepest search that finished within ``seconds``. Answers the
        search's state at once (``wait``: once it has finished); poll it at
        ``/api/searches/{id}``."""
        return _answer(service.endgame(body.cgp, body.gcg, body.turn, body.lexicon,
                                       body.seconds, body.depth), body.wait)

    @app.post("/api/preendgame", response_model=PreEndgameSearch,
              responses=SEARCH_ERRORS, tags=["analysis"])
    def preendgame(body: PreEndgameRequest) -> dict[str, Any]:
        """Start the pre-endgame of a position or a record's turn (two players,
        1 to 6 tiles in the bag): the best ``candidates`` placements with their
        win % and expected spread change over every draw, solved by endgames
        within ``seconds``. Answers as ``/api/endgame``."""
        return _answer(service.preendgame(body.cgp, body.gcg, body.turn, body.lexicon,
                                          body.seconds, body.candidates), body.wait)

    @app.get("/api/searches/{search_id}", response_model=AnySearch, tags=["analysis"],
             responses={404: {"model": ErrorBody, "description": "No such search."},
                        422: ERRORS[422]})
    def search_state(search_id: SearchId) -> dict[str, Any]:
        """A search's state: its progress while it runs, then its result (or
        why it failed)."""
        return service.searches.get(search_id).state()

    @app.post("/api/searches/{search_id}/stop", response_model=AnySearch,
              tags=["analysis"],
              responses={404: {"model": ErrorBody, "description": "No such search."},
                         422: ERRORS[422]})
    def search_stop(search_id: SearchId) -> dict[str, Any]:
        """Stop a search: it ends within a slice of its work with the best it
        found so far (its status then ``stopped``)."""
        search = service.searches.stop(search_id)
        search.finished.wait(2.0)
        return search.state()

    @app.get("/api/games", tags=["games"], responses=ERRORS)
    def games(limit: Annotated[int, Query(ge=1, le=500)] = 50,
              offset: Annotated[int, Query(ge=0, le=10**9)] = 0) -> dict[str, Any]:
        """Saved games, newest first."""
        return service.games(limit, offset)

    @app.post("/api/games", status_code=201, responses=ERRORS, tags=["games"])
    def new_game(body: NewGame) -> dict[str, Any]:
        """Start a game against one to three computer players, on a game clock
        when ``clock`` is given (the state's ``clock``: the ``seconds`` each
        player had, the seconds ``left`` by seat, negative past it, and the seat
        whose clock is ``running``)."""
        return service.create_game(
            lexicon=body.lexicon, layout=body.layout, human=body.human,
            opponents=[(o.level, o.seconds) for o in body.opponents],
            challenge=body.challenge, seed=body.seed, human_first=body.human_first,
            variant=body.variant, clock=body.clock)

    @app.post("/api/gcg/import", status_code=201, responses=ERRORS, tags=["games"])
    def import_game(body: ImportRequest) -> dict[str, Any]:
        """Store a GCG record as a game to view and analyse, or to go on with
        (``play_as``) against computer players."""
        return service.import_gcg(
            body.gcg, body.lexicon, play_as=body.play_as,
            opponents=[(o.level, o.seconds) for o in body.opponents or []],
            challenge=body.challenge)

    @app.get("/api/games/{game_id}", responses=GAME_ERRORS, tags=["games"])
    def get_game(game_id: GameId) -> dict[str, Any]:
        """A game as the person sees it."""
        return service.get(game_id)

    @app.post("/api/games/{game_id}/play", responses=GAME_ERRORS, tags=["games"])
    def play(game_id: GameId, body: PlayRequest) -> dict[str, Any]:
        """The person's placement, then the computer players' replies."""
        tiles = None if body.tiles is None else [(t.row, t.col, t.letter, t.blank)
                                                 for t in body.tiles]
        return service.play(game_id, move=body.move, tiles=tiles)

    @app.post("/api/games/{game_id}/exchange", responses=GAME_ERRORS, tags=["games"])
    def exchange(game_id: GameId, body: ExchangeRequest) -> dict[str, Any]:
        """The person exchanges tiles."""
        return service.exchange(game_id, body.tiles)

    @app.post("/api/games/{game_id}/pass", responses=GAME_ERRORS, tags=["games"])
    def pass_turn(game_id: GameId) -> dict[str, Any]:
        """The person passes."""
        return service.pass_turn(game_id)

    @app.post("/api/games/{game_id}/challenge", responses=GAME_ERRORS, tags=["games"])
    def challenge(game_id: GameId) -> dict[str, Any]:
        """The person challenges the last play."""
        return service.challenge(game_id)

    @app.post("/api/games/{game_id}/undo", responses=GAME_ERRORS, tags=["games"])
    def undo(game_id: GameId) -> dict[str, Any]:
        """Back to the person's previous turn."""
        return service.undo(game_id)

    @app.get("/api/games/{game_id}/hint", responses=GAME_ERRORS, tags=["games"])
    def hint(game_id: GameId, top: Annotated[int, Query(ge=1, le=50)] = 5) -> dict[str, Any]:
        """The person's best moves by static equity."""
        return service.hint(game_id, top)

    @app.get("/api/games/{game_id}/gcg", response_model=None, responses={
        **GAME_ERRORS, 200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                             "description": "The GCG record."}}, tags=["games"])
    def download(game_id: GameId) -> Response:
        """The game's record as a GCG file."""
        return PlainTextResponse(service.gcg(game_id), headers={
            "Content-Disposition": f'attachment; filename="game-{game_id}.gcg"'})

    @app.get("/api/games/{game_id}/report", response_model=None, responses={
        **GAME_ERRORS, 200: {"content": {"text/html": {"schema": {"type": "string"}}},
                             "description": "The report page."}}, tags=["games"])
    def report(game_id: GameId) -> Response:
        """The game's report to look at: one self-contained HTML page with the
        board after every turn, the move played against the best with the equity
        lost, a chart of the equity lost and each player's totals."""
        # the page's policy (its one script by hash) as a header too, with what a
        # meta element cannot say: no framing
        return Response(service.report(game_id), media_type="text/html; charset=utf-8",
                        headers={"Content-Security-Policy": f"{CSP}; frame-ancestors 'none'",
                                 "X-Content-Type-Options": "nosniff"})

    @app.get("/api/players", tags=["rankings"])
    def players() -> dict[str, Any]:
        """Every player (people and computer levels) with rating and record."""
        return {"players": service.players()}

    @app.get("/api/rankings", tags=["rankings"])
    def rankings() -> dict[str, Any]:
        """Players by rating, and the latest finished games with their standings."""
        return service.rankings()

    @app.get("/api/study", responses=ERRORS, tags=["study"])
    def study_stats(player: Annotated[str, Query(min_length=1, max_length=40)]
                    ) -> dict[str, Any]:
        """A person's study deck: items due now, learned, new, and falling due
        on each of the next 7 days (docs/STUDY.md)."""
        return service.study_stats(player)

    @app.get("/api/study/progress", responses=ERRORS, tags=["study"])
    def study_progress(player: Annotated[str, Query(min_length=1, max_length=40)]
                       ) -> dict[str, Any]:
        """A person's progress: the Mistake Index of each game of theirs studied
        (oldest first), the share of study reviews right (all, 30 days, 7
        days), and their puzzle rating and attempts."""
        return service.study_progress(player)

    @app.get("/api/study/next", responses=ERRORS, tags=["study"])
    def study_next(player: Annotated[str, Query(min_length=1, max_length=40)],
                   new: Annotated[int, Query(ge=0, le=1000)] = 10) -> dict[str, Any]:
        """The next item to review (the most overdue, else a new one), as a
        question without its answers; ``item`` null when nothing is due."""
        return service.study_next(player, new)

    @app.post("/api/study/answer", responses=GAME_ERRORS, tags=["study"])
    def study_answer(body: StudyAnswerRequest) -> dict[str, Any]:
        """Grade a reply to a deck's item and schedule it again (FSRS)."""
        return service.study_answer(body.player, body.item, body.reply, body.seconds)

    @app.get("/api/puzzles/next", responses=ERRORS, tags=["study"])
    def puzzle_next(player: Annotated[str, Query(min_length=1, max_length=40)],
                    tag: Annotated[str | None, Query(max_length=40)] = None
                    ) -> dict[str, Any]:
        """A puzzle the person has not tried, rated nearest them (of ``tag``,
        when given), with its position; ``puzzle`` null when there is none."""
        return service.puzzle_next(player, tag)

    @app.post("/api/puzzles/answer", responses=GAME_ERRORS, tags=["study"])
    def puzzle_answer(body: PuzzleAnswerRequest) -> dict[str, Any]:
        """Grade a move for a puzzle, explain the answer, and rate the person
        and the puzzle by the attempt (Glicko-2)."""
        return service.puzzle_answer(body.player, body.puzzle, body.reply, body.seconds)

    app.add_middleware(BodyLimit, limit=MAX_BODY)
    return app


def _allowed(app: FastAPI, scope: Scope) -> list[str]:
    """The methods of every route whose path matches the request's."""
    from starlette.routing import Match

    methods: set[str] = set()
    for route in app.router.routes:
        match, _ = route.matches({**scope, "method": "GET"})
        if match != Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
            if match == Match.FULL and not getattr(route, "methods", None):
                methods.add("GET")
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            m, _ = route.matches({**scope, "method": method})
            if m == Match.FULL:
                methods.add(method)
    return sorted(methods)


def _warm(service: Service) -> None:
    """Load the default lexicon and compile the move generator once."""
    try:
        from rackety.game.board import Board
        from rackety.game.movegen import generate

        assert service.lexicons.default is not None
        lexicon = service.lexicons.get(service.lexicons.default)
        board = Board.empty(lexicon.alphabet)
        board.racks = [tuple(lexicon.alphabet.tokenize("AEINRST")), ()]
        generate(board, lexicon)
    except Exception:  # a warm-up failure shows again, clearly, on the first request
        log.exception("warming up failed")


def _version() -> str:
    from rackety import __version__

    return __version__


