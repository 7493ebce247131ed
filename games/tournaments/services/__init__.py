"""The only writers of clubs and tournaments: views, tasks and receivers call
these. Lock order: a tournament's rows first (Tournament → Round → Match), then the
games' own order (Table → Series → Game, games/services/locks.py)."""
