"""The lessons, as data: a fixed deal, the plays before the learner's turn, a goal.

Every lesson is a real engine position (``engine.game_from_position`` refuses an
impossible one) and every play in it goes through ``engine.apply``, so a lesson can never
teach a move the live table would refuse. The learner always sits at seat 0 (team A);
seat 1 is the opponent on the left, seat 2 the partner, seat 3 the opponent on the right.

Texts may name cards as ``%(name)s``: ``Lesson.cards`` maps each name to a card code,
and the page fills in the card in the reader's letters (Russian "Т♥").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import engine
from games.engine import Beat, Card, Discard, Lead

#: The learner's seat in every lesson (R1: team A, with the partner at seat 2).
LEARNER = 0


class Goal(Protocol):
    """What the learner's move must achieve, judged on the engine's states."""

    def met(self, action: engine.Action, before: engine.GameState,
            after: engine.GameState) -> bool:
        """``before`` is the state the learner acted on; ``after`` the state once the
        lesson's other players have replied."""


@dataclass(frozen=True)
class Plays:
    """The learner makes a play of this kind (and, if given, with this many cards)."""

    kind: str
    count: int | None = None

    def met(self, action: engine.Action, before: engine.GameState,
            after: engine.GameState) -> bool:
        return action.kind == self.kind and (
            self.count is None or len(action.cards) == self.count)


@dataclass(frozen=True)
class DiscardsNothingOfValue:
    """R9/R10: a discard goes into the taker's pile, so a good one is worth 0 points."""

    def met(self, action: engine.Action, before: engine.GameState,
            after: engine.GameState) -> bool:
        return action.kind == "discard" and sum(c.points for c in action.cards) == 0


@dataclass(frozen=True)
class TakesTheTrick:
    """R10: the learner takes the trick (and so, R12–R13, draws first and leads next)."""

    def met(self, action: engine.Action, before: engine.GameState,
            after: engine.GameState) -> bool:
        return (after.tricks_completed > before.tricks_completed
                and after.last_trick is not None and after.last_trick.taker == LEARNER)


@dataclass(frozen=True)
class GameResult:
    """R16–R17: the game ends with this result for the learner's team (A)."""

    wins: bool | None = None
    loss_points: int | None = None
    eggs: bool | None = None

    def met(self, action: engine.Action, before: engine.GameState,
            after: engine.GameState) -> bool:
        result = engine.outcome(after)
        if result is None:
            return False
        return ((self.wins is None or (result.winner == engine.TEAM_A) == self.wins)
                and (self.loss_points is None
                     or result.loss_points[engine.TEAM_A] == self.loss_points)
                and (self.eggs is None or result.eggs == self.eggs))


@dataclass(frozen=True)
class Lesson:
    """One idea, taught on one fixed deal with one move of the learner's."""

    slug: str
    title: Promise
    rules: tuple[str, ...]
    idea: Promise
    task: Promise
    hints: tuple[Promise, ...]
    success: Promise
    position: engine.Position
    goal: Goal
    before: tuple[tuple[int, engine.Action], ...] = ()
    after: tuple[tuple[int, engine.Action], ...] = ()
    cards: Mapping[str, str] = field(default_factory=dict)
    #: Loss points of teams A and B before this game, for the lessons about the series.
    series: tuple[int, int] | None = None

    def start(self) -> engine.GameState:
        """The position the learner sees: the deal plus the plays before their turn."""
        state = engine.game_from_position(self.position)
        for seat, action in self.before:
            state = engine.apply(state, seat, action)
        return state


def _opening(trump_card: str, leader: int, hands: list[list[str]]) -> engine.Position:
    """A fresh deal (R5–R6): these hands, the other 20 cards the stock."""
    held = {code for hand in hands for code in hand}
    stock = [card.code for card in engine.parse_cards(
        [s + r for r in "CDHS" for s in "6789JQKTA"]) if card.code not in held]
    return engine.Position.from_dict({
        "dealer": (leader - 1) % 4, "leader": leader, "trump_card": trump_card,
        "hands": hands, "stock": stock})


def _last_trick(trump_card: str, leader: int, hands: list[str],
                pile_a: list[str]) -> engine.Position:
    """The last trick of a game (R14): one card each, the stock empty, team A's pile as
    given and team B's the rest; one trick per four cards, as in one-card tricks."""
    used = set(hands) | set(pile_a)
    pile_b = [s + r for r in "CDHS" for s in "6789JQKTA" if s + r not in used]
    return engine.Position.from_dict({
        "dealer": (leader - 1) % 4, "leader": leader, "trump_card": trump_card,
        "hands": [[code] for code in hands], "stock": [],
        "piles": {"A": pile_a, "B": pile_b},
        "tricks": {"A": len(pile_a) // 4, "B": len(pile_b) // 4}})


def _cards(*codes: str) -> list[Card]:
    return [Card(code) for code in codes]


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        slug="card-order",
        title=_("Card order and trumps"),
        rules=("R2", "R6", "R7"),
        idea=_("In every suit the cards rank 6, 7, 8, 9, jack, queen, king, 10, ace: the 10 "
               "ranks above the king. A higher card of the same suit beats a lower one, and a "
               "trump beats any card of another suit. Here spades are trump."),
        task=_("Your right-hand opponent led the %(king)s. Beat it."),
        hints=(_("Look for a higher heart, or for a trump."),
               _("The %(ten)s beats the %(king)s: 10 ranks above the king. The %(trump)s "
                 "beats it too, because spades are trump.")),
        success=_("Well done. Remember: 10 ranks above the king, and any trump beats any "
                  "card of another suit. Two cards of different suits, neither a trump, never "
                  "beat each other."),
        position=_opening("9S", 3, [["TH", "6S", "AC", "7D"], ["6D", "8C", "JD", "QC"],
                                    ["7C", "8D", "9C", "JC"], ["KH", "9D", "6C", "8H"]]),
        before=((3, Lead(_cards("KH"))),),
        goal=Plays("beat"),
        after=((1, Discard(_cards("6D"))), (2, Discard(_cards("7C")))),
        cards={"king": "KH", "ten": "TH", "trump": "6S"},
    ),
    Lesson(
        slug="leading",
        title=_("Leading several cards"),
        rules=("R8",),
        idea=_("The player on lead may lead one to four cards, all of one suit. Everyone "
               "then plays exactly as many cards to the trick."),
        task=_("You are on lead with three clubs. Lead all three clubs at once."),
        hints=(_("Select only cards of one suit: a lead never mixes suits."),
               _("Select the %(ace)s, the %(ten)s and the %(king)s, then press Lead.")),
        success=_("Three cards led: now every other player must play three cards too, and "
                  "to beat you they would need three cards that each beat one of yours."),
        position=_opening("8D", 0, [["AC", "TC", "KC", "7H"], ["6H", "8H", "9S", "JS"],
                                    ["6S", "7S", "8S", "QD"], ["9H", "JH", "QH", "KS"]]),
        goal=Plays("lead", 3),
        after=((1, Discard(_cards("6H", "8H", "9S"))), (2, Discard(_cards("6S", "7S", "8S"))),
               (3, Discard(_cards("9H", "JH", "QH")))),
        cards={"ace": "AC", "ten": "TC", "king": "KC"},
    ),
    Lesson(
        slug="beating",
        title=_("Beating card by card"),
        rules=("R7", "R9"),
        idea=_("To beat a lead of several cards you play as many cards, and each of yours "
               "must beat a different card of the set on top. Your cards need not share a "
               "suit. Here clubs are trump."),
        task=_("Your right-hand opponent led the %(queen)s and the %(nine)s. Beat both."),
        hints=(_("Pair your cards with theirs: each of yours must beat its partner."),
               _("The %(king)s beats the %(queen)s, and the %(trump)s, a trump, beats the "
                 "%(nine)s.")),
        success=_("Each of your cards beats its own partner, so your set is now the one to "
                  "beat."),
        position=_opening("9C", 3, [["KD", "7C", "8H", "AS"], ["6D", "6H", "7H", "6S"],
                                    ["7D", "8D", "7S", "8S"], ["QD", "9D", "6C", "JH"]]),
        before=((3, Lead(_cards("QD", "9D"))),),
        goal=Plays("beat"),
        after=((1, Discard(_cards("6D", "6H"))), (2, Discard(_cards("7D", "8D")))),
        cards={"queen": "QD", "nine": "9D", "king": "KD", "trump": "7C"},
    ),
    Lesson(
        slug="discarding",
        title=_("Discarding face down"),
        rules=("R9", "R10"),
        idea=_("If you cannot beat, or do not want to, you discard: you play as many cards "
               "face down, and nobody sees them. They go into the pile of whoever takes the "
               "trick, points and all. Here diamonds are trump."),
        task=_("You cannot beat the %(ace)s. Discard a card that gives away no points."),
        hints=(_("A discard ends up in the taker's pile: give the cheapest card you have."),
               _("The 6, 7, 8 and 9 are worth nothing. Discard the %(six)s or the %(seven)s.")),
        success=_("Nothing given away: the opponents take the trick, but your discard adds "
                  "no points to their pile."),
        position=_opening("9D", 3, [["6C", "7S", "KC", "TS"], ["8S", "9S", "6H", "7H"],
                                    ["8C", "9C", "JC", "QD"], ["AH", "8H", "JS", "QS"]]),
        before=((3, Lead(_cards("AH"))),),
        goal=DiscardsNothingOfValue(),
        after=((1, Discard(_cards("8S"))), (2, Discard(_cards("8C")))),
        cards={"ace": "AH", "six": "6C", "seven": "7S"},
    ),
    Lesson(
        slug="drawing",
        title=_("Taking a trick and the draw"),
        rules=("R10", "R12", "R13"),
        idea=_("Whoever beat last takes the trick. Then everyone draws from the stock, one "
               "card at a time, starting with the taker, until all hold four cards again. "
               "The taker leads next. Here hearts are trump."),
        task=_("Your left-hand opponent led the %(eight)s, your partner discarded and your "
               "right-hand opponent beat with the %(jack)s. You play last: take the trick."),
        hints=(_("You must beat the top card, the %(jack)s, not the first one led."),
               _("Beat the %(jack)s with the %(queen)s.")),
        success=_("You beat last, so the trick is yours: you drew first from the stock and "
                  "you lead the next trick."),
        position=_opening("6H", 1, [["QS", "7C", "9D", "KD"], ["8S", "7D", "8D", "9C"],
                                    ["6C", "8C", "JC", "QC"], ["JS", "6S", "7S", "9S"]]),
        before=((1, Lead(_cards("8S"))), (2, Discard(_cards("6C"))), (3, Beat(_cards("JS")))),
        goal=TakesTheTrick(),
        cards={"eight": "8S", "jack": "JS", "queen": "QS"},
    ),
    Lesson(
        slug="molodka",
        title=_("The molodka"),
        rules=("R11",),
        idea=_("Four cards of one suit in your hand are a molodka. You may announce it at "
               "any moment of a trick before you have played to it, even out of turn: the "
               "cards already played go back, and the trick starts again with your four "
               "cards as the lead."),
        task=_("You hold four hearts. Your left-hand opponent has led; do not wait for your "
               "turn: announce your molodka."),
        hints=(_("A molodka is announced with all four cards, out of turn."),
               _("Select all four hearts and press Molodka.")),
        success=_("Molodka! The lead went back to its owner and you led your four hearts: "
                  "now everyone must answer with four cards."),
        position=_opening("9S", 1, [["6H", "8H", "JH", "AH"], ["9C", "6D", "7D", "6S"],
                                    ["7C", "8C", "8D", "7S"], ["6C", "JC", "9D", "8S"]]),
        before=((1, Lead(_cards("9C"))),),
        goal=Plays("molodka"),
        after=((1, Discard(_cards("9C", "6D", "7D", "6S"))),
               (2, Discard(_cards("7C", "8C", "8D", "7S"))),
               (3, Discard(_cards("6C", "JC", "9D", "8S")))),
    ),
    Lesson(
        slug="counting",
        title=_("Counting points"),
        rules=("R3", "R16"),
        idea=_("At the end of a game each team counts the cards in its pile: jack 2, queen "
               "3, king 4, 10 scores 10, ace 11, the rest nothing; 120 in all. A team with 61 "
               "or more wins the game."),
        task=_("The last trick: your team has 40 points so far. Your right-hand opponent led "
               "the %(ten)s. Make your team win."),
        hints=(_("Count what the trick holds: the %(ten)s is worth 10 and your %(ace)s 11."),
               _("Beat the %(ten)s with the %(ace)s: 40 + 21 = 61, a win.")),
        success=_("61 points: your team wins this game and gets no loss points."),
        position=_last_trick("9H", 3, ["AC", "6D", "7D", "TC"],
                             ["AS", "TS", "KS", "QS", "JS", "6S", "7S", "8S", "TD", "6C",
                              "7C", "8C"]),
        before=((3, Lead(_cards("TC"))),),
        goal=GameResult(wins=True),
        after=((1, Discard(_cards("6D"))), (2, Discard(_cards("7D")))),
        cards={"ten": "TC", "ace": "AC"},
    ),
    Lesson(
        slug="loss-points",
        title=_("Loss points"),
        rules=("R16",),
        idea=_("The team that loses a game gets loss points: 2 with 31 to 59 card points, 4 "
               "with 30 or fewer, 6 if it took no trick at all. Even a lost game is worth "
               "fighting for."),
        task=_("The last trick: your team has only 20 points and cannot win. Your right-hand "
               "opponent led the %(ten)s. Lose with as few loss points as you can."),
        hints=(_("With 31 points or more you lose only 2 loss points instead of 4."),
               _("Take the trick with the %(ace)s: 20 + 21 = 41 points.")),
        success=_("41 points: you lost the game, but with 2 loss points instead of 4."),
        position=_last_trick("9S", 3, ["AD", "6C", "7C", "TD"], ["AS", "KS", "QS", "JS"]),
        before=((3, Lead(_cards("TD"))),),
        goal=GameResult(wins=False, loss_points=2),
        after=((1, Discard(_cards("6C"))), (2, Discard(_cards("7C")))),
        cards={"ten": "TD", "ace": "AD"},
    ),
    Lesson(
        slug="eggs-and-series",
        title=_("Eggs and the series to 12"),
        rules=("R17", "R18"),
        idea=_("Games follow one another and each team's loss points add up. The first team "
               "to reach 12 loss points is the goat and loses the series. A game that ends "
               "60 to 60 is eggs: nobody gets loss points."),
        task=_("Your team has 10 loss points, theirs 8. Your team has 49 points in this game. "
               "Your right-hand opponent led the %(six)s in the last trick. Save the series."),
        hints=(_("Losing this game costs 2 loss points: 12, and your team is the goat."),
               _("Take the trick with the %(ace)s: 49 + 11 = 60, eggs.")),
        success=_("60 to 60: eggs! Nobody gets loss points and the series goes on."),
        position=_last_trick("9H", 3, ["AH", "6C", "7C", "6H"],
                             ["AS", "TS", "KS", "QS", "JS", "TD", "KD", "QD", "JD", "6S",
                              "7S", "8S"]),
        before=((3, Lead(_cards("6H"))),),
        goal=GameResult(eggs=True),
        after=((1, Discard(_cards("6C"))), (2, Discard(_cards("7C")))),
        cards={"six": "6H", "ace": "AH"},
        series=(10, 8),
    ),
)

BY_SLUG: Mapping[str, Lesson] = {lesson.slug: lesson for lesson in LESSONS}

#: The lesson a refusal about beating (R7, R9) links to at the table.
BEATING = "beating"
