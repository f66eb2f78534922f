from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.browser import ExtBrowser, launch


@pytest.fixture
def ext() -> Iterator[ExtBrowser]:
    """Chromium with the extension loaded and the host installed into its throwaway profile."""
    with launch() as eb:
        yield eb


@pytest.fixture(autouse=True, scope="session")
def same_hypothesis_examples_whatever_ran_before() -> Iterator[None]:
    """Hypothesis mixes constants from every local module imported so far into what it draws, so a
    derandomized property drew other examples in the whole suite than in its file alone: a failure
    CI found could not be seen here, and one seen here might not recur there. Its pool of local
    constants is held empty, so each property draws the same examples wherever it runs."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - Hypothesis moved its internals: draws as it likes
        yield
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(providers, "_get_local_constants", lambda: providers.Constants())
        providers.CONSTANTS_CACHE.cache.clear()
        yield
