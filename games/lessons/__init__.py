"""Learn to play: short lessons on fixed deals, each move judged by the engine.

``catalog`` holds the lessons as data (a position, the plays before the learner's turn,
a goal, hints); ``services`` checks a learner's move; ``progress`` remembers which
lessons a visitor has finished (in the session, so guests keep theirs too).
"""
