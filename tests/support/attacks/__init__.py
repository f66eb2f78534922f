"""heybro's attack generator: classes of attacks, each produced from parameters (variants), run in
the real extension, host and Chromium with a scripted model that obeys the page, and judged on
hard evidence only (model/attacks.py says what an attack is, judge.py what counts as evidence,
run.py how a group shares one browser launch).

    from support.attacks import all_attacks, run_attacks
    for outcome in run_attacks([a for a in all_attacks() if a.half == "tune"], tmp): ...
"""

from __future__ import annotations

from .model import SEVERITIES, Attack, split
from .run import Outcome, run_attacks


def all_attacks(*, benign: bool = True) -> list[Attack]:
    """Every attack (and the benign counterparts), each in its half."""
    from .classes import benign as benign_ones
    from .classes import generate

    attacks = generate() + (benign_ones() if benign else [])
    ids = [a.id for a in attacks]
    dupes = {i for i in ids if ids.count(i) > 1}
    assert not dupes, f"attack ids must be unique: {dupes}"
    return split(attacks)


__all__ = ["SEVERITIES", "Attack", "Outcome", "all_attacks", "run_attacks"]
