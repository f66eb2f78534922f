"""Tasks on MLflow (the tracking UI): create an experiment, tag one found by its name in the
experiments table, delete one, and answer which team owns one — each checked in MLflow's SQLite
store."""

from __future__ import annotations

import re
from typing import Any

from ..corpus.mlflow import MLflow
from ..corpus_task import CorpusTask, done, map_line, one_subtask, verified
from ..scripted_llm import call, calls, find_id


def _experiment(app: MLflow, name: str) -> dict[str, Any]:
    return next(e for e in app.experiments() if e["name"] == name)


def _create(_: MLflow) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Create the experiment pricing-ab-test"),
        "worker": [
            lambda b: call("click", element_id=find_id(b, 'button "Create"')),
            lambda b: calls(("fill", {"element_id": find_id(b, 'textbox "Experiment Name"'), "value": "pricing-ab-test"}),
                            ("click", {"element_id": find_id(b, 'button "Create"', within="Artifact Location")})),
            done("The experiment pricing-ab-test is created"),
        ],
        "verifier": verified("The experiment pricing-ab-test is shown"),
    }


def _names(app: MLflow) -> list[str]:
    return sorted(e["name"] for e in app.experiments())


def _create_check(app: MLflow, run: Any) -> None:
    e = _experiment(app, "pricing-ab-test")
    assert e["lifecycle_stage"] == "active", e
    assert _names(app) == sorted([*run.before, "pricing-ab-test"]), (run.before, _names(app))  # that one alone


def _tag(_: MLflow) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Add the tag owner = dana.kim to house-price-regression"),
        "worker": [
            # The Edit tags button of the row of house-price-regression.
            lambda b: call("click", element_id=find_id(b, 'button "Edit tags"', row="house-price-regression")),
            # The key is a combobox a person types a new key into and takes with Enter; the value a
            # plain field.
            lambda b: calls(("type", {"element_id": find_id(b, "combobox", within="Add/Edit tags"), "text": "owner"}),
                            ("press", {"keys": "Enter"})),
            lambda b: calls(("fill", {"element_id": find_id(b, 'textbox "Value"', within="Add/Edit tags"),
                                      "value": "dana.kim"}),
                            ("click", {"element_id": find_id(b, 'button "Add tag"')})),
            lambda b: call("click", element_id=find_id(b, 'button "Save tags"')),
            done("The experiment has the tag owner = dana.kim"),
        ],
        "verifier": verified("The row shows owner : dana.kim"),
    }


def _all_tags(app: MLflow) -> dict[str, dict[str, str]]:
    return {e["name"]: {k: v for k, v in e["tags"].items() if not k.startswith("mlflow.")} for e in app.experiments()}


def _tag_check(app: MLflow, run: Any) -> None:
    after = _all_tags(app)
    assert after["house-price-regression"] == {**run.before["house-price-regression"], "owner": "dana.kim"}, \
        after["house-price-regression"]
    assert {k: v for k, v in after.items() if k != "house-price-regression"} == \
        {k: v for k, v in run.before.items() if k != "house-price-regression"}  # no other experiment touched


def _delete(_: MLflow) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Delete the demand-forecast-q4 experiment"),
        "worker": [
            lambda b: call("check", element_id=find_id(b, "checkbox", row="demand-forecast-q4")),
            lambda b: call("click", element_id=find_id(b, 'button "Delete"', within="# Experiments")),
            lambda b: call("click", element_id=find_id(b, 'button "Delete"', within="## dialog")),
            done("demand-forecast-q4 is deleted"),
        ],
        "verifier": verified("The table no longer lists demand-forecast-q4"),
    }


def _active(app: MLflow) -> list[str]:
    return sorted(e["name"] for e in app.experiments() if e["lifecycle_stage"] == "active")


def _delete_check(app: MLflow, run: Any) -> None:
    assert _experiment(app, "demand-forecast-q4")["lifecycle_stage"] == "deleted"
    assert _active(app) == [n for n in run.before if n != "demand-forecast-q4"], (run.before, _active(app))


def _answer(_: MLflow) -> dict[str, list[Any]]:
    def read_team(b: dict[str, Any]) -> dict[str, Any]:
        # The row of sentiment-bert-finetune, with its tags as "key : value".
        line = map_line(b, "sentiment-bert-finetune")
        team = re.search(r"\bteam : ([\w.-]+)", line)
        assert team, line
        return calls(("answer", {"text": f"The {team.group(1)} team owns sentiment-bert-finetune."}),
                     ("mark_done", {"summary": "Read the team tag in the experiments table"}))
    return {"scheduler": one_subtask("Read the sentiment-bert-finetune experiment's team tag"), "worker": [read_team],
            "verifier": verified("The table shows the team tag")}


def _answer_check(_: MLflow, run: Any) -> None:
    assert re.search(r"\bnlp\b", run.final.get("answer") or ""), run.final


# The UI routes by the address's #fragment; the query makes each task's address load afresh.
EXPERIMENTS = "/?view=tasks#/experiments"

TASKS = [
    CorpusTask("mlflow", "creates an experiment", "Create a new experiment called pricing-ab-test",
               EXPERIMENTS, _create, _create_check, kind="create", before=_names),
    CorpusTask("mlflow", "tags an experiment found by its name in the table",
               "Tag the house-price-regression experiment with owner = dana.kim",
               EXPERIMENTS, _tag, _tag_check, kind="edit", before=_all_tags),
    CorpusTask("mlflow", "deletes an experiment found by its name in the table", "Delete the demand-forecast-q4 experiment",
               EXPERIMENTS, _delete, _delete_check, kind="delete", before=_active),
    CorpusTask("mlflow", "answers which team owns an experiment", "Which team owns the sentiment-bert-finetune experiment?",
               EXPERIMENTS, _answer, _answer_check, kind="answer"),
]
