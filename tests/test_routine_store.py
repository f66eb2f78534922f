"""Routines in a real SQLite store: saved once per name, listed with their last run, deleted
while their runs stay in the history."""

from __future__ import annotations

from pathlib import Path

import pytest

from heybro.routines.model import Parameter, Routine, Step, fill
from heybro.store.routines import StoreRoutines
from heybro.store.task_store import TaskStore


def _routine(name: str = "order-kettle") -> Routine:
    return Routine(name=name, goal="Buy a {{param:item}}", start_url="http://127.0.0.1/shop",
                   parameters=[Parameter(name="item", default="kettle")],
                   steps=[Step(tool="fill", args={"value": "{{param:item}}"}, intent="search"),
                          Step(tool="click", intent="add to cart")])


def test_a_saved_routine_reads_back_whole_and_a_second_save_under_its_name_is_refused(
        tmp_path: Path) -> None:
    routines = StoreRoutines(TaskStore(tmp_path / "t.sqlite3"))
    routines.save(_routine())
    assert routines.get("order-kettle") == _routine().model_copy(
        update={"created_at": routines.get("order-kettle").created_at,  # type: ignore[union-attr]
                "updated_at": routines.get("order-kettle").updated_at})  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="exists already"):
        routines.save(_routine())
    healed = _routine().model_copy(update={"heals": 1})
    routines.save(healed, replace=True)
    assert routines.get("order-kettle").heals == 1  # type: ignore[union-attr]


def test_the_listing_shows_the_last_run_and_deleting_keeps_the_runs_task(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "t.sqlite3")
    routines = StoreRoutines(store)
    routines.save(_routine())
    assert routines.listing()[0].runs == 0
    task = store.create_task("Buy a kettle", url="http://127.0.0.1/shop")
    routines.start_run("order-kettle", task.id)
    routines.count_run(task.id, heals=1, model_calls=2)
    [row] = routines.listing()
    assert (row.runs, row.last_task, row.last_heals, row.last_model_calls) == (1, task.id, 1, 2)
    assert row.parameters == {"item": "kettle"}
    assert routines.delete("order-kettle") and routines.listing() == []
    assert store.get_task(task.id) is not None
    assert routines.routine_of(task.id) == "order-kettle"


def test_parameters_fill_the_steps_and_a_misspelt_one_is_refused() -> None:
    r = _routine()
    assert fill(r.steps[0].args, r.values({"item": "teapot"})) == {"value": "teapot"}
    assert fill(r.steps[0].args, r.values()) == {"value": "kettle"}
    with pytest.raises(ValueError, match="unknown parameter.*itme.*takes: item"):
        r.values({"itme": "teapot"})
    with pytest.raises(ValueError, match="parameter name"):
        Parameter(name="Item Name", default="x")
