"""The games tests' cast (alice, bob, carol, dan seated; charlie refused) for the
language tests too."""

import pytest
from django.utils import translation

from tests.games.conftest import _fixed_deals, cast, full_table, make_user, table  # noqa: F401


@pytest.fixture(autouse=True)
def _site_language_after_each_test():
    """A page requested in Albanian leaves Albanian active in the test's thread (the locale
    middleware activates, nothing deactivates): give the next test, of any suite, the
    site's default language again."""
    yield
    translation.deactivate()
