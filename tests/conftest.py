from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.browser import ExtBrowser, launch


@pytest.fixture
def ext() -> Iterator[ExtBrowser]:
    """Chromium with the extension loaded and the host installed into its throwaway profile."""
    with launch() as eb:
        yield eb
