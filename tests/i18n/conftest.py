"""The games tests' cast (alice, bob, carol, dan seated; charlie refused) for the
language tests too."""

from tests.games.conftest import _fixed_deals, cast, full_table, make_user, table  # noqa: F401
