from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Clubs and their tournaments."""

    name = "games.tournaments"
    label = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import policy
        from games.tournaments import (
            board_reads,
            duplicate_reads,
            receivers,  # noqa: F401 - connects the receivers
            selectors,
        )

        # Imported now, not at the first game's end: the receiver runs on a web
        # process's database thread, and importing the pairing (networkx) there held up
        # every socket of that process while it loaded.
        from games.tournaments.services import rounds  # noqa: F401

        # A round's tables wait for their check-in: the empty-table sweep leaves them.
        policy.register_table_hold(selectors.tables_in_checkin)
        # A director's corrected result is the one the ratings rate.
        policy.register_result_corrections(selectors.corrected_results)
        # A match's table speaks of its event (its name and link, "Game 2 of 4").
        policy.register_table_event(selectors.table_event)
        # Duplicate: a match's game k is board k of its round, dealt from the board's
        # seed; a finished board's record stays hidden until every table has played it,
        # then it is open to everyone, like the traveller that links to it.
        policy.register_deal_plan(board_reads.planned_deal)
        policy.register_record_hold(board_reads.held_games)
        policy.register_record_release(duplicate_reads.released_games)
