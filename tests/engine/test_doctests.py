"""Run the doctests of every engine module: the examples in the docstrings must stay true."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil

import pytest

import games.engine

MODULES = sorted(m.name for m in pkgutil.iter_modules(games.engine.__path__, "games.engine."))


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_every_public_name_has_a_docstring() -> None:
    for name in games.engine.__all__:
        obj = getattr(games.engine, name)
        if (inspect.isfunction(obj) or inspect.isclass(obj)) and not name.isupper():
            assert (obj.__doc__ or "").strip(), f"{name} lacks a docstring"
