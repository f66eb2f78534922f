from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.browser import ExtBrowser, launch  # noqa: E402


@pytest.fixture
def ext() -> Iterator[ExtBrowser]:
    """Chromium with the extension loaded and the host installed into its throwaway profile."""
    with launch() as eb:
        yield eb
