"""R19 as a security property: record every frame each seat and a spectator receive
during whole games and check that none holds a card that connection may not see.

Every frame goes through the check, whatever its type (snapshots, events, refreshes,
chat, notices, pongs, errors). The allowed set is computed independently of the engine's
observer, per version: the seat's own hand, the trump card, every card played face up so
far (lead, beat, molodka — also the ones a molodka restart sent back to a hand), and the
seat's own discards. Cards are found as codes ("TS"), symbols ("10♠") and names ("10 of
spades"); the seed may not appear either. After the game is over everything may be shown
(R19), so frames of the finished game are exempt.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from channels.db import database_sync_to_async

from games import engine
from games.services import play, tables
from games.services import series as series_service
from tests.games.helpers import current_game, state_of, strings_in
from tests.games.ws import connect

pytestmark = pytest.mark.django_db(transaction=True)
ALL_CARDS = {f"{r}{s}" for r in "6789TJQKA" for s in "CDHS"}
CODE = re.compile(r"^[6789TJQKA][CDHS]$")
SYMBOL = re.compile(r"(10|[6789JQKA])([♣♦♥♠])")
NAME = re.compile(r"\b(6|7|8|9|10|jack|queen|king|ace) of (clubs|diamonds|hearts|spades)\b",
                  re.IGNORECASE)
RANK_OF = {"10": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}
SUIT_OF = {"♣": "C", "♦": "D", "♥": "H", "♠": "S",
           "clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}


@database_sync_to_async
def setup(cast, seed_table_name):
    table = tables.create_table(cast.alice, tables.TableSettings(name=seed_table_name))
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    series = series_service.start_series(table.pk, cast.alice)
    return table, current_game(series)


@database_sync_to_async
def load_state(game):
    return state_of(game), game.version, game.status


@database_sync_to_async
def submit(game, user, action, version):
    play.submit_action(game.pk, user, action.to_dict(), version)


def pick(state, rng) -> tuple[int, engine.Action]:
    """A random legal (seat, action), molodka announcements preferred when possible."""
    choices = [(s, a) for s in engine.seats_to_act(state) for a in engine.legal_actions(state, s)]
    molodkas = [c for c in choices if c[1].kind == "molodka"]
    return rng.choice(molodkas) if molodkas and rng.random() < 0.7 else rng.choice(choices)


def cards_named_in(obj) -> set[str]:
    """Every card a JSON-like value shows: codes as whole strings, symbols and names
    inside any string (keys included)."""
    found: set[str] = set()
    for item in strings_in(obj):
        if CODE.match(item):
            found.add(item)
        for rank, suit in SYMBOL.findall(item):
            found.add(RANK_OF.get(rank, rank) + SUIT_OF[suit])
        for rank, suit in NAME.findall(item):
            found.add(RANK_OF.get(rank.lower(), rank) + SUIT_OF[suit.lower()])
    return found


def test_the_scanner_finds_cards_in_every_form():
    frame = {"a": ["TS", "x 7♥ y"], "QC": {"m": "the King of diamonds, 10♣"}}
    assert cards_named_in(frame) == {"TS", "7H", "QC", "KD", "TC"}


def frame_version(frame) -> int | None:
    if frame["type"] == "event":
        return frame["version"]
    if frame["type"] == "snapshot" and frame.get("game"):
        return frame["game"]["version"]
    return None


def frame_is_after_the_end(frame) -> bool:
    view = frame.get("view") or (frame.get("game") or {}).get("view")
    return bool(view and view.get("game_over"))


class Leaks:
    """Checks every frame against the allowed cards at the frame's own version."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.allowed: dict[int, dict[str, set[str]]] = {}  # version -> who -> cards
        self.current = 0
        self.types: set[str] = set()
        self.frames = 0

    def check(self, frame, who: str) -> None:
        self.frames += 1
        self.types.add(frame["type"])
        if frame_is_after_the_end(frame):
            return
        version = frame_version(frame)
        allowed = self.allowed[self.current if version is None else version][who]
        leaked = cards_named_in(frame) - allowed
        assert not leaked, f"{who} received hidden cards {sorted(leaked)} in {frame}"
        text = json.dumps(frame, ensure_ascii=False)
        assert '"seed"' not in text and str(self.seed) not in text, (
            f"{who} received the seed before the end: {frame}")

    async def read_until(self, recorder, who: str, version: int) -> None:
        """Check every frame ``who`` receives up to the one for ``version``."""
        while True:
            frame = await recorder.receive()
            self.check(frame, who)
            if frame_version(frame) == version:
                return

    async def read_types(self, recorder, who: str, types: set[str]) -> None:
        """Check every frame ``who`` receives until one of each of ``types`` came."""
        waiting = set(types)
        while waiting:
            frame = await recorder.receive()
            self.check(frame, who)
            waiting.discard(frame["type"])


@pytest.mark.slow
@pytest.mark.parametrize("run", [1, 2, 3])
async def test_r19_no_connection_ever_receives_a_hidden_card(cast, run):
    rng = random.Random(run)
    table, game = await setup(cast, f"r19-{run}")
    leaks = Leaks(game.seed)
    users = dict(enumerate(cast.seated))
    who = {s: f"seat {s}" for s in range(4)}
    face_up: set[str] = set()
    own_discards: dict[int, set[str]] = {s: set() for s in range(4)}
    recorders: dict[int, object] = {}
    spectator = None
    moves = 0
    asked = False
    while True:
        state, version, status = await load_state(game)
        trump = {engine.observe(state, 0).to_dict()["trump_card"]}
        hands = {s: {c.code for c in state.hands[s]} for s in range(4)}
        leaks.allowed[version] = {
            **{who[s]: hands[s] | trump | face_up | own_discards[s] for s in range(4)},
            "spectator": trump | face_up}
        leaks.current = version
        if not recorders:  # connect once the allowed set of version 0 is known
            recorders = {s: await connect(table.pk, users[s]) for s in range(4)}
            spectator = await connect(table.pk)
        for s, rec in recorders.items():
            await leaks.read_until(rec, who[s], version)
        await leaks.read_until(spectator, "spectator", version)
        if status != "playing":
            break
        if not asked and state.k == 1 and state.turn is not None:
            # Frames other than snapshots and events: a pong, a chat line, and an error
            # that names the seat's own card and the face-up top set (R9).
            turn = state.turn
            rec = recorders[turn]
            await rec.send({"type": "ping", "nonce": moves})
            await rec.send({"type": "chat", "text": "good luck"})
            losing = [a for a in engine.legal_actions(state, turn) if a.kind == "discard"
                      and engine.Beat(a.cards) not in engine.legal_actions(state, turn)]
            if losing:
                await rec.send({"type": "act", "version": version,
                                "action": engine.Beat(losing[0].cards).to_dict()})
                await leaks.read_types(rec, who[turn], {"pong", "error"})
                asked = True
        seat, action = pick(state, rng)
        codes = {c.code for c in action.cards}
        if action.kind == "discard":
            own_discards[seat] |= codes
        else:
            face_up |= codes
        await submit(game, users[seat], action, version)
        moves += 1
    # Whatever is still on its way (refreshes after the end) is checked too. (Not
    # Recorder.drain: a receive that times out cancels the application.)
    for rec, name in [*((recorders[s], who[s]) for s in range(4)), (spectator, "spectator")]:
        while not await rec.communicator.receive_nothing(timeout=0.3):
            leaks.check(await rec.receive(), name)
    assert status == "finished" and moves >= 12  # 9 cards each, at most 4 a move
    assert ALL_CARDS - face_up, "some cards must have stayed hidden for the test to mean much"
    assert asked and {"snapshot", "event", "pong", "chat", "error"} <= leaks.types, leaks.types
    for rec in [*recorders.values(), spectator]:
        await rec.close()
