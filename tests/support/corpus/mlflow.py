"""MLflow (PyPI): an experiment tracker — experiments, their runs with parameters, metrics (with
step histories drawn as charts), tags and artifacts, and a model registry — as a React single-page
app served by `mlflow server` over SQLite, behind MLflow's basic-auth app.

Seeded through the MLflow Python client with four experiments (churn prediction, house prices,
a BERT sentiment fine-tune, a demand forecast) holding 25 runs in different states (finished,
failed, killed, running; a parent sweep run with three children), each with parameters, metric
histories, tags, a note and artifacts (a model folder, a JSON report, a CSV, a PNG chart), and two
registered models with versions, aliases and tags. Users: the admin (who logs in) and two more.
"""

from __future__ import annotations

import base64
import contextlib
import json
import sqlite3
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import App, Page, first_missing, venv_dir, venv_install, venv_missing

NAME = "mlflow"
VERSION = "3.17.2"
# The auth extra brings Flask-WTF, which the basic-auth app needs.
REQUIREMENTS = [f"mlflow[auth]=={VERSION}"]
ADMIN, PASSWORD = "admin", "heybro-mlflow-pass-1"
# Team members who log runs (their names are the runs' "mlflow.user"), with their own logins.
USERS = ["ann.lee", "bob.stone", "cleo.park", "dev.shah", "eve.moss", "fay.wong", "gus.hale", "hal.kerr"]

# The seeding script runs in MLflow's own virtualenv (its client is not importable here); it
# writes straight into the SQLite store the server then opens, which is much faster than going
# through the server's REST API one call at a time.
_SEED = r'''
import json, math, random, sys
from pathlib import Path

from mlflow import MlflowClient
from mlflow.entities import Metric, Param, RunTag

data, admin, admin_password, users = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4].split(",")
uri = f"sqlite:///{data}/mlflow.db"
c = MlflowClient(tracking_uri=uri, registry_uri=uri)
rnd = random.Random(7)
DAY = 86_400_000
BASE = 1_790_000_000_000  # 2026-09-21, runs are spread over the weeks after it

EXPERIMENTS = [
    ("churn-prediction", {"team": "growth", "project": "retention-2026"},
     "Predict which subscribers cancel within 60 days. Target: churned_60d. Data: subs snapshot v3."),
    ("house-price-regression", {"team": "pricing", "project": "valuation"},
     "Sale price regression on the Leeds and York listings, 2019-2026."),
    ("sentiment-bert-finetune", {"team": "nlp", "project": "support-tickets"},
     "Fine-tuning transformer models on labelled support tickets (positive / neutral / negative)."),
    ("demand-forecast-q4", {"team": "supply", "project": "forecasting"},
     "Weekly demand forecast for the Q4 catalogue (Red Mug, Blue Kettle, Oak Tray ...)."),
]

# name, user, status, params, final metrics, history (key -> (start, end, steps)), extra tags
CHURN = [
    ("logreg-baseline", "ann.lee", "FINISHED", {"model_type": "logistic_regression", "C": "1.0", "penalty": "l2", "max_iter": "200"},
     {"accuracy": 0.812, "f1": 0.604, "precision": 0.655, "recall": 0.561, "roc_auc": 0.842}, {}),
    ("logreg-l1", "ann.lee", "FINISHED", {"model_type": "logistic_regression", "C": "0.5", "penalty": "l1", "max_iter": "300"},
     {"accuracy": 0.808, "f1": 0.598, "precision": 0.648, "recall": 0.556, "roc_auc": 0.839}, {}),
    ("rf-baseline", "bob.stone", "FINISHED", {"model_type": "random_forest", "n_estimators": "200", "max_depth": "8", "min_samples_leaf": "5"},
     {"accuracy": 0.846, "f1": 0.671, "precision": 0.712, "recall": 0.634, "roc_auc": 0.889}, {"train_loss": (0.62, 0.31, 25)}),
    ("rf-depth12", "bob.stone", "FINISHED", {"model_type": "random_forest", "n_estimators": "400", "max_depth": "12", "min_samples_leaf": "3"},
     {"accuracy": 0.853, "f1": 0.688, "precision": 0.721, "recall": 0.658, "roc_auc": 0.897}, {"train_loss": (0.60, 0.24, 25)}),
    ("xgb-lr0.1", "cleo.park", "FINISHED", {"model_type": "xgboost", "learning_rate": "0.1", "max_depth": "6", "n_estimators": "500"},
     {"accuracy": 0.867, "f1": 0.712, "precision": 0.741, "recall": 0.685, "roc_auc": 0.914}, {"train_loss": (0.66, 0.21, 40), "val_loss": (0.67, 0.29, 40)}),
    ("xgb-lr0.05", "cleo.park", "FAILED", {"model_type": "xgboost", "learning_rate": "0.05", "max_depth": "10", "n_estimators": "1200"},
     {}, {"train_loss": (0.68, 0.44, 12)}),
    ("gbm-tuned", "cleo.park", "FINISHED", {"model_type": "lightgbm", "learning_rate": "0.03", "num_leaves": "63", "n_estimators": "900"},
     {"accuracy": 0.871, "f1": 0.719, "precision": 0.748, "recall": 0.692, "roc_auc": 0.921}, {"train_loss": (0.67, 0.19, 40), "val_loss": (0.68, 0.27, 40)}),
]
SWEEP = [("rf-sweep-depth6", "6", 0.881), ("rf-sweep-depth10", "10", 0.893), ("rf-sweep-depth14", "14", 0.890)]
HOUSE = [
    ("linear-baseline", "dev.shah", "FINISHED", {"model_type": "linear_regression", "features": "12"},
     {"rmse": 41250.0, "mae": 29870.0, "r2": 0.712}, {}),
    ("ridge-alpha1", "dev.shah", "FINISHED", {"model_type": "ridge", "alpha": "1.0", "features": "48"},
     {"rmse": 36410.0, "mae": 25120.0, "r2": 0.781}, {}),
    ("ridge-alpha10", "dev.shah", "FINISHED", {"model_type": "ridge", "alpha": "10.0", "features": "48"},
     {"rmse": 35980.0, "mae": 24890.0, "r2": 0.786}, {}),
    ("lasso-alpha0.5", "eve.moss", "FINISHED", {"model_type": "lasso", "alpha": "0.5", "features": "48"},
     {"rmse": 37120.0, "mae": 25600.0, "r2": 0.772}, {}),
    ("rf-300-trees", "eve.moss", "FINISHED", {"model_type": "random_forest", "n_estimators": "300", "max_depth": "16"},
     {"rmse": 28760.0, "mae": 19430.0, "r2": 0.861}, {"train_rmse": (61000.0, 21000.0, 30)}),
    ("lgbm-v1", "eve.moss", "FINISHED", {"model_type": "lightgbm", "learning_rate": "0.05", "num_leaves": "31"},
     {"rmse": 26240.0, "mae": 17810.0, "r2": 0.884}, {"train_rmse": (64000.0, 18200.0, 30), "val_rmse": (65000.0, 26240.0, 30)}),
    ("lgbm-v2", "eve.moss", "FINISHED", {"model_type": "lightgbm", "learning_rate": "0.02", "num_leaves": "63"},
     {"rmse": 24980.0, "mae": 16950.0, "r2": 0.895}, {"train_rmse": (66000.0, 16100.0, 30), "val_rmse": (67000.0, 24980.0, 30)}),
]
BERT = [
    ("distilbert-lr2e-5", "fay.wong", "FINISHED", {"model_name": "distilbert-base-uncased", "learning_rate": "2e-5", "epochs": "3", "batch_size": "32"},
     {"val_accuracy": 0.884, "val_f1_macro": 0.861}, {"train_loss": (1.05, 0.32, 30), "val_loss": (0.98, 0.39, 30)}),
    ("distilbert-lr5e-5", "fay.wong", "FINISHED", {"model_name": "distilbert-base-uncased", "learning_rate": "5e-5", "epochs": "3", "batch_size": "32"},
     {"val_accuracy": 0.879, "val_f1_macro": 0.853}, {"train_loss": (1.04, 0.25, 30), "val_loss": (0.97, 0.43, 30)}),
    ("bert-base-3ep", "gus.hale", "FINISHED", {"model_name": "bert-base-uncased", "learning_rate": "3e-5", "epochs": "3", "batch_size": "16"},
     {"val_accuracy": 0.902, "val_f1_macro": 0.884}, {"train_loss": (1.08, 0.27, 30), "val_loss": (1.00, 0.34, 30)}),
    ("roberta-base", "gus.hale", "KILLED", {"model_name": "roberta-base", "learning_rate": "3e-5", "epochs": "5", "batch_size": "16"},
     {}, {"train_loss": (1.10, 0.71, 9)}),
    ("bert-base-5ep", "gus.hale", "RUNNING", {"model_name": "bert-base-uncased", "learning_rate": "2e-5", "epochs": "5", "batch_size": "16"},
     {}, {"train_loss": (1.09, 0.38, 22), "val_loss": (1.01, 0.41, 22)}),
]
DEMAND = [
    ("arima-baseline", "hal.kerr", "FINISHED", {"model_type": "arima", "order": "(2,1,2)", "horizon_weeks": "13"},
     {"mape": 0.184, "wape": 0.162, "bias": -0.031}, {}),
    ("prophet-weekly", "hal.kerr", "FINISHED", {"model_type": "prophet", "seasonality": "weekly+yearly", "horizon_weeks": "13", "changepoint_prior": "0.05"},
     {"mape": 0.137, "wape": 0.121, "bias": 0.012}, {"backtest_mape": (0.21, 0.137, 13)}),
]

def curve(a, b, n):
    out = []
    for i in range(n):
        t = i / max(n - 1, 1)
        v = b + (a - b) * math.exp(-3.2 * t) + rnd.uniform(-0.015, 0.015) * abs(a - b)
        out.append(round(v, 4))
    out[-1] = b
    return out

def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)

def png(path, title, values):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 3), dpi=80)
    names = list(values)
    ax.barh(names, [values[k] for k in names], color="#2272b4")
    ax.set_title(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)

def artifacts(run, name, params, final, model_flavor, source_script):
    root = Path(run.info.artifact_uri.replace("file://", ""))
    write(root / "model" / "MLmodel", (
        f"artifact_path: model\nflavors:\n  python_function:\n    loader_module: mlflow.sklearn\n"
        f"    python_version: 3.11.7\n  sklearn:\n    pickled_model: model.pkl\n    serialization_format: cloudpickle\n"
        f"    sklearn_version: 1.5.2\nrun_id: {run.info.run_id}\nmlflow_version: 3.17.2\n"
        f"model_type: {model_flavor}\n"))
    write(root / "model" / "requirements.txt", "mlflow==3.17.2\nscikit-learn==1.5.2\npandas==2.2.3\nnumpy==2.1.3\n")
    write(root / "model" / "conda.yaml", "name: mlflow-env\nchannels: [conda-forge]\ndependencies:\n- python=3.11.7\n- pip:\n  - mlflow==3.17.2\n  - scikit-learn==1.5.2\n")
    write(root / "model" / "model.pkl", "(binary model placeholder)\n")
    write(root / "metrics.json", json.dumps({"run": name, **final}, indent=2) + "\n")
    write(root / "params.yaml", "".join(f"{k}: {v}\n" for k, v in params.items()))
    write(root / "code" / source_script, f"# {source_script}: trains {name}\nimport mlflow\n\n\ndef main():\n    with mlflow.start_run():\n        ...\n")

exp_ids = {}
for i, (name, tags, note) in enumerate(EXPERIMENTS, 1):
    exp_ids[name] = c.create_experiment(name, artifact_location=str(data / "artifacts" / str(i)),
                                        tags={**tags, "mlflow.note.content": note,
                                              "mlflow.experimentKind": "custom_model_development"})

run_ids = {}
def make_run(exp, spec, start, script, parent=None):
    name, user, status, params, final, hist = spec
    tags = {"mlflow.user": user, "mlflow.source.name": script, "mlflow.source.type": "LOCAL",
            "mlflow.source.git.commit": "%040x" % rnd.getrandbits(160), "dataset_version": "v3",
            "mlflow.note.content": f"{name}: {params.get('model_type') or params.get('model_name')} run by {user}."}
    if parent:
        tags["mlflow.parentRunId"] = parent
    run = c.create_run(exp_ids[exp], start_time=start, tags=tags, run_name=name)
    rid = run.info.run_id
    metrics = [Metric(k, v, start + 60_000, 0) for k, v in final.items()]
    for key, (a, b, n) in hist.items():
        metrics += [Metric(key, v, start + (s + 1) * 45_000, s) for s, v in enumerate(curve(a, b, n))]
    for i in range(0, len(metrics), 900):
        c.log_batch(rid, metrics=metrics[i:i + 900], params=[Param(k, v) for k, v in params.items()] if i == 0 else [])
    if status == "FINISHED":
        artifacts(run, name, params, final, params.get("model_type", "transformer"), script)
    if status != "RUNNING":
        c.set_terminated(rid, status, end_time=start + 60_000 * (5 + len(hist) * 9 + rnd.randint(1, 40)))
    run_ids[name] = rid
    return run

day = 0
for spec in CHURN:
    make_run("churn-prediction", spec, BASE + day * DAY + rnd.randint(9, 17) * 3_600_000, "train_churn.py")
    day += 1
parent = c.create_run(exp_ids["churn-prediction"], start_time=BASE + day * DAY + 10 * 3_600_000, run_name="rf-sweep",
                      tags={"mlflow.user": "bob.stone", "mlflow.source.name": "sweep_churn.py", "mlflow.source.type": "LOCAL",
                            "sweep": "max_depth", "mlflow.note.content": "Grid search over max_depth (6, 10, 14)."})
c.log_batch(parent.info.run_id, metrics=[Metric("best_roc_auc", 0.893, BASE + day * DAY, 0)],
            params=[Param("model_type", "random_forest"), Param("search", "grid"), Param("n_estimators", "300")])
for k, (name, depth, auc) in enumerate(SWEEP):
    make_run("churn-prediction", (name, "bob.stone", "FINISHED",
             {"model_type": "random_forest", "n_estimators": "300", "max_depth": depth, "min_samples_leaf": "4"},
             {"accuracy": round(auc - 0.036, 3), "f1": round(auc - 0.19, 3), "roc_auc": auc}, {"train_loss": (0.61, 0.2 + k * 0.02, 20)}),
             BASE + day * DAY + (10 + k) * 3_600_000 + 60_000, "sweep_churn.py", parent=parent.info.run_id)
c.set_terminated(parent.info.run_id, "FINISHED", end_time=BASE + day * DAY + 14 * 3_600_000)
run_ids["rf-sweep"] = parent.info.run_id
for exp, specs, script in (("house-price-regression", HOUSE, "train_price.py"),
                           ("sentiment-bert-finetune", BERT, "finetune.py"),
                           ("demand-forecast-q4", DEMAND, "forecast.py")):
    for spec in specs:
        day += 1
        make_run(exp, spec, BASE + day * DAY + rnd.randint(9, 17) * 3_600_000, script)

# charts for the best runs
for name, title, values in (
        ("gbm-tuned", "Feature importance", {"tenure_months": 0.31, "monthly_fee": 0.22, "support_calls": 0.18,
                                             "last_login_days": 0.15, "plan_annual": 0.09, "region_north": 0.05}),
        ("lgbm-v2", "Feature importance", {"floor_area": 0.38, "postcode_band": 0.24, "bedrooms": 0.14,
                                           "year_built": 0.11, "garden": 0.08, "parking": 0.05})):
    root = Path(c.get_run(run_ids[name]).info.artifact_uri.replace("file://", ""))
    png(root / "feature_importance.png", title, values)
    write(root / "feature_importance.csv", "feature,importance\n" + "".join(f"{k},{v}\n" for k, v in values.items()))

MODELS = [
    ("churn-classifier", "Subscriber churn classifier used by the retention e-mails.",
     [("rf-baseline", "Random forest baseline"), ("xgb-lr0.1", "XGBoost, lr 0.1"), ("gbm-tuned", "LightGBM tuned")],
     {"champion": 3, "challenger": 2}),
    ("house-price-model", "Valuation model behind the listing price hint.",
     [("ridge-alpha10", "Ridge regression"), ("lgbm-v2", "LightGBM v2")], {"production": 2}),
]
for name, desc, versions, aliases in MODELS:
    c.create_registered_model(name, tags={"owner": "ml-platform", "domain": name.split("-")[0]}, description=desc)
    for run_name, vdesc in versions:
        run = c.get_run(run_ids[run_name])
        c.create_model_version(name, source=f"{run.info.artifact_uri}/model", run_id=run.info.run_id,
                               description=vdesc, tags={"validation": "passed"})
    for alias, v in aliases.items():
        c.set_registered_model_alias(name, alias, str(v))
c.create_registered_model("fraud-detector", description="Card fraud scoring (not trained yet).",
                          tags={"owner": "risk"})

# Users and what they may do, in the basic-auth app's own store (the server opens it as it is).
from mlflow.server.auth.sqlalchemy_store import SqlAlchemyStore
auth = SqlAlchemyStore()
auth.init_db(f"sqlite:///{data}/basic_auth.db")
auth.create_user(admin, admin_password, is_admin=True)
ids = {u: auth.create_user(u, u.replace(".", "-") + "-pass-2026").id for u in users}
for role_name, desc, perm, members in (
        ("data-scientists", "Edit every experiment", "EDIT", ["ann.lee", "bob.stone", "cleo.park", "fay.wong", "gus.hale"]),
        ("analysts", "Read-only access to experiments", "READ", ["dev.shah", "eve.moss", "hal.kerr"])):
    role = auth.create_role(role_name, "default", desc)
    auth.add_role_permission(role.id, "experiment", "*", perm)
    for m in members:
        auth.assign_role_to_user(ids[m], role.id)
auth.create_experiment_permission(exp_ids["churn-prediction"], "ann.lee", "MANAGE")
auth.create_experiment_permission(exp_ids["house-price-regression"], "eve.moss", "MANAGE")
auth.create_registered_model_permission("churn-classifier", "cleo.park", "MANAGE")
print(json.dumps({"experiments": exp_ids, "runs": run_ids}))
'''


def _auth_config(data: Path) -> Path:
    ini = data / "basic_auth.ini"
    ini.write_text(
        "[mlflow]\n"
        "default_permission = READ\n"
        f"database_uri = sqlite:///{data}/basic_auth.db\n"
        f"admin_username = {ADMIN}\n"
        f"admin_password = {PASSWORD}\n"
        "authorization_function = mlflow.server.auth:authenticate_request_basic_auth\n"
        "grant_default_workspace_access = false\n"
        # Each request carries the password, and checking its hash costs a CPU-second or more:
        # remembering a good check keeps the single-page app's bursts of XHR calls quick.
        "auth_cache_ttl_seconds = 3600\n")
    return ini


@dataclass
class MLflow:
    url: str
    data: Path
    python: Path
    user: str = ADMIN
    password: str = PASSWORD

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """A query on the tracking store (tables experiments, runs, params, metrics,
        latest_metrics, tags, experiment_tags, registered_models, model_versions, …)."""
        con = sqlite3.connect(self.data / "mlflow.db", timeout=10)
        try:
            return con.execute(query, params).fetchall()
        finally:
            con.close()

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """MLflow's REST API as the admin, e.g. api("GET", "/api/2.0/mlflow/experiments/search?max_results=50")."""
        token = base64.b64encode(f"{self.user}:{self.password}".encode()).decode()
        req = urllib.request.Request(self.url + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": f"Basic {token}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read() or b"{}")

    def client(self, code: str) -> str:
        """Runs Python with MLflow's own client (`client` bound, logged in as the admin) in its
        virtualenv; returns what it printed. E.g. client("print(client.get_experiment_by_name('x'))")."""
        prelude = ("from mlflow import MlflowClient\n"
                   f"client = MlflowClient(tracking_uri={self.url!r}, registry_uri={self.url!r})\n")
        return run([str(self.python), "-c", prelude + code],
                   env={"MLFLOW_TRACKING_USERNAME": self.user, "MLFLOW_TRACKING_PASSWORD": self.password})

    def experiments(self) -> list[dict[str, Any]]:
        """Active experiments: id, name, lifecycle stage and tags."""
        rows = self.sql("SELECT experiment_id, name, lifecycle_stage FROM experiments ORDER BY experiment_id")
        return [{"id": str(i), "name": n, "lifecycle_stage": s,
                 "tags": dict(self.sql("SELECT key, value FROM experiment_tags WHERE experiment_id = ?", i))}
                for i, n, s in rows]

    def runs(self, experiment: str | None = None) -> list[dict[str, Any]]:
        """Runs (of one experiment, by name, or all): id, name, status, lifecycle stage, params,
        latest metrics, tags."""
        q = ("SELECT r.run_uuid, r.name, r.status, r.lifecycle_stage, e.name FROM runs r "
             "JOIN experiments e ON e.experiment_id = r.experiment_id")
        rows = self.sql(q + (" WHERE e.name = ?" if experiment else "") + " ORDER BY r.start_time",
                        *([experiment] if experiment else []))
        return [{"id": rid, "name": n, "status": s, "lifecycle_stage": ls, "experiment": e,
                 "params": dict(self.sql("SELECT key, value FROM params WHERE run_uuid = ?", rid)),
                 "metrics": dict(self.sql("SELECT key, value FROM latest_metrics WHERE run_uuid = ?", rid)),
                 "tags": dict(self.sql("SELECT key, value FROM tags WHERE run_uuid = ?", rid))}
                for rid, n, s, ls, e in rows]

    def run_id(self, name: str) -> str:
        return str(self.sql("SELECT run_uuid FROM runs WHERE name = ?", name)[0][0])

    def experiment_id(self, name: str) -> str:
        return str(self.sql("SELECT experiment_id FROM experiments WHERE name = ?", name)[0][0])

    def models(self) -> list[dict[str, Any]]:
        """Registered models with their versions (version, stage, status, run id) and aliases."""
        out = []
        for name, desc in self.sql("SELECT name, description FROM registered_models ORDER BY name"):
            out.append({"name": name, "description": desc,
                        "versions": [{"version": v, "stage": st, "run_id": r, "description": d}
                                     for v, st, r, d in self.sql(
                                         "SELECT version, current_stage, run_id, description FROM model_versions "
                                         "WHERE name = ? ORDER BY version", name)],
                        "aliases": dict(self.sql("SELECT alias, version FROM registered_model_aliases "
                                                 "WHERE name = ?", name)),
                        "tags": dict(self.sql("SELECT key, value FROM registered_model_tags WHERE name = ?",
                                              name))})
        return out

    def auth_sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """A query on the basic-auth app's store (users, roles, role_permissions, user_role_assignments)."""
        con = sqlite3.connect(self.data / "basic_auth.db", timeout=10)
        try:
            return con.execute(query, params).fetchall()
        finally:
            con.close()

    def users(self) -> list[dict[str, Any]]:
        """The app's users: name, whether admin, and their roles' names."""
        return [{"username": u, "is_admin": bool(a),
                 "roles": [r for (r,) in self.auth_sql(
                     "SELECT r.name FROM roles r JOIN user_role_assignments a ON a.role_id = r.id "
                     "WHERE a.user_id = ? AND r.name NOT LIKE '\\_\\_%' ESCAPE '\\' ORDER BY r.name", i)]}
                for i, u, a in self.auth_sql("SELECT id, username, is_admin FROM users ORDER BY username")]

    def login(self, page: Any) -> None:
        # MLflow's basic-auth app has no login form, only HTTP basic auth: a person answers the
        # browser's prompt once; credentials in the address do that, and Chromium then keeps them
        # for the origin (the app's own XHR calls included).
        host = self.url.removeprefix("http://")
        page.goto(f"http://{self.user}:{self.password}@{host}/")
        page.wait_for_selector("text=Welcome to MLflow", timeout=60_000)
        # What a newcomer then does once (the app remembers it in localStorage): dismiss the
        # telemetry notice and the assistant panel that opens by itself, switch the sidebar to
        # "Model training", and close the registry's "new UI" dialog that opens on first visit.
        for close in ("button[aria-label='Close alert']", "button[aria-label='Close']"):
            if page.locator(close).count():
                page.locator(close).first.click()
        page.click("text=Model training")
        page.goto(f"{self.url}/?view=login#/models")
        page.wait_for_selector("a[href='#/models/churn-classifier']", timeout=60_000)
        dialog = page.locator("[role=dialog] button[aria-label=Close]")
        with contextlib.suppress(Exception):
            dialog.wait_for(timeout=5_000)
            dialog.click()

    def pages(self) -> list[Page]:
        def at(name: str, route: str) -> str:
            # The UI routes by the address's #fragment, and going to an address that differs only
            # there does not reload the page (a dialog left open stays open): a query naming the
            # page makes each address load afresh.
            return f"/?view={name}#{route}"

        rid = {n: self.run_id(n) for n in ("gbm-tuned", "xgb-lr0.1", "rf-depth12")}
        sweep = self.run_id("rf-sweep")
        gbm = f"/experiments/1/runs/{rid['gbm-tuned']}"
        runs = "/experiments/1/runs?searchFilter=&orderByKey=attributes.start_time&orderByAsc=false" \
               "&startTime=ALL&lifecycleFilter=Active&compareRunsMode=TABLE"
        grid = ".ag-row a"

        def click(*selectors: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                for sel in selectors:
                    page.locator(sel).first.click()
                    page.wait_for_timeout(400)
            return go

        def search_experiments(page: Any) -> None:
            page.fill("input[placeholder='Search experiments']", "price")
            page.press("input[placeholder='Search experiments']", "Enter")
            page.wait_for_selector("a:text-is('churn-prediction')", state="detached", timeout=10_000)

        def metric_columns(page: Any) -> None:
            page.click("button:has-text('Columns')")
            for metric in ("accuracy", "roc_auc", "f1"):
                page.locator(f"[role=menu] :text-is('{metric}'), [role=dialog] :text-is('{metric}')").first.click()
            page.keyboard.press("Escape")

        def expand_sweep(page: Any) -> None:
            page.locator(f".ag-row:has(a[href$='/runs/{sweep}']) button").first.click()
            page.wait_for_selector('text="rf-sweep-depth10"', timeout=10_000)

        def delete_experiment_checked(page: Any) -> None:
            page.locator("[role=row]:has(a:text-is('demand-forecast-q4')) input[type=checkbox]").first.check()
            page.click("button:has-text('Delete')")
            page.wait_for_selector("[role=dialog]", timeout=5_000)

        def expand_chart(page: Any) -> None:
            card = page.locator("[data-testid=experiment-view-compare-runs-card-menu]")
            card.nth(5).locator("xpath=preceding-sibling::button[1]").click()
            page.wait_for_selector("[role=dialog]", timeout=5_000)

        return [
            Page("home", at("home", "/"), "view", ready="text=Recent Experiments"),
            Page("experiments", at("experiments", "/experiments"), "list", ready="a:text-is('churn-prediction')"),
            Page("experiments-search", at("experiments-search", "/experiments"), "search",
                 ready="a:text-is('churn-prediction')", open=search_experiments),
            Page("experiment-create-dialog", at("experiment-create", "/experiments"), "dialog",
                 ready="a:text-is('churn-prediction')", open=click("button:has-text('Create')")),
            Page("experiments-delete-confirm", at("experiments-delete", "/experiments"), "dialog",
                 ready="a:text-is('churn-prediction')", open=delete_experiment_checked),
            Page("runs", at("runs", runs), "grid", ready=grid),
            Page("runs-sorted-by-auc", at("runs-sorted", runs.replace(
                "attributes.start_time&orderByAsc=false", "metrics.%60roc_auc%60&orderByAsc=false")), "grid", ready=grid),
            Page("runs-filtered", at("runs-filtered", runs.replace(
                "searchFilter=", "searchFilter=params.model_type%20%3D%20%22random_forest%22")), "grid", ready=grid),
            Page("runs-columns-menu", at("runs-columns", runs), "dialog", ready=grid,
                 open=click("button:has-text('Columns')")),
            Page("runs-metric-columns", at("runs-metric-columns", runs), "grid", ready=grid, open=metric_columns),
            Page("runs-sweep-expanded", at("runs-sweep", runs), "grid", ready=grid, open=expand_sweep),
            Page("runs-charts", at("runs-charts", runs.replace("TABLE", "CHART")), "view", ready=grid),
            Page("house-price-runs", at("house-runs", runs.replace("/experiments/1/", "/experiments/2/").replace(
                "attributes.start_time&orderByAsc=false", "metrics.%60rmse%60&orderByAsc=true")), "grid", ready=grid),
            Page("runs-compare", at("runs-compare", '/compare-runs?runs=["{}","{}","{}"]&experiments=["1"]'.format(
                *rid.values())), "view", ready="text=Run details"),
            Page("experiment-edit-dialog", at("experiment-edit", runs), "dialog", ready=grid,
                 open=click("[data-testid=overflow-menu-trigger]", "[role=menuitem]:has-text('Edit experiment')")),
            Page("experiment-delete-confirm", at("experiment-delete", runs), "dialog", ready=grid,
                 open=click("[data-testid=overflow-menu-trigger]", "[role=menuitem]:has-text('Delete')")),
            Page("run-overview", at("run", gbm), "view", ready="text=About this run"),
            Page("run-metric-charts", at("run-metrics", gbm + "/model-metrics"), "view", ready="text=train_loss"),
            Page("run-metric-chart-expanded", at("run-metric-expanded", gbm + "/model-metrics"), "dialog",
                 ready="text=train_loss", open=expand_chart),
            Page("run-artifacts-image", at("run-artifacts", gbm + "/artifacts"), "view",
                 ready="text=feature_importance.png", open=click("text=feature_importance.png")),
            Page("run-register-model-dialog", at("run-register", f"/experiments/1/runs/{rid['rf-depth12']}/artifacts"),
                 "dialog", ready="text=params.yaml", open=click('text="model"', "button:has-text('Register model')")),
            Page("run-rename-dialog", at("run-rename", gbm), "dialog", ready="text=About this run",
                 open=click("[data-testid=overflow-menu-trigger]", "[role=menuitem]:has-text('Rename')")),
            Page("run-delete-confirm", at("run-delete", gbm), "dialog", ready="text=About this run",
                 open=click("[data-testid=overflow-menu-trigger]", "[role=menuitem]:has-text('Delete')")),
            Page("run-description-editor", at("run-description", gbm), "editor", ready="text=About this run",
                 open=click("button[aria-label='Edit description']")),
            Page("run-tags-dialog", at("run-tags", gbm), "dialog", ready="text=About this run",
                 open=click("button[aria-label='Edit tags']")),
            Page("models", at("models", "/models"), "list", ready="a[href='#/models/churn-classifier']"),
            Page("model-create-dialog", at("model-create", "/models"), "dialog", ready="a[href='#/models/churn-classifier']",
                 open=click("button:has-text('Create Model')")),
            Page("model", at("model", "/models/churn-classifier"), "view", ready="text=Version 3"),
            Page("model-version", at("model-version", "/models/churn-classifier/versions/3"), "form",
                 ready="text=Promote model"),
            Page("model-version-promote-dialog", at("model-promote", "/models/churn-classifier/versions/3"), "dialog",
                 ready="text=Promote model", open=click("button:has-text('Promote model')")),
            Page("admin-users", at("admin", "/admin"), "list", ready="text=bob.stone"),
            Page("settings", at("settings", "/settings/general"), "settings", ready="text=Theme preference"),
            Page("signup-user-form", "/signup", "form"),
        ]


def _missing() -> str | None:
    return first_missing(venv_missing(NAME, REQUIREMENTS))


def _install() -> None:
    venv_install(NAME, REQUIREMENTS)


@contextmanager
def _start(data: Path) -> Iterator[MLflow]:
    venv = venv_dir(NAME)
    python = venv / "bin" / "python"
    env = {"MLFLOW_AUTH_CONFIG_PATH": str(_auth_config(data)), "HOME": str(data / "home"),
           "MLFLOW_DISABLE_TELEMETRY": "true", "DO_NOT_TRACK": "true", "MPLCONFIGDIR": str(data / "mpl"),
           "MLFLOW_FLASK_SERVER_SECRET_KEY": "heybro-mlflow-csrf-key",
           # The job runner (GenAI judges, prompt optimisation) would start a dozen queue workers
           # keeping their queues in /dev/shm, outside the data folder.
           "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false", "TMPDIR": str(data / "tmp")}
    (data / "tmp").mkdir(exist_ok=True)
    if not (data / "mlflow.db").exists():
        (data / "seed.py").write_text(_SEED)
        run([str(python), str(data / "seed.py"), str(data), ADMIN, PASSWORD, ",".join(USERS)], env=env,
            timeout=300)
    port = free_port()
    server = Process.start([str(venv / "bin" / "mlflow"), "server", "--host", "127.0.0.1", "--port", str(port),
                            "--backend-store-uri", f"sqlite:///{data}/mlflow.db",
                            "--default-artifact-root", str(data / "artifacts"),
                            "--app-name", "basic-auth", "--workers", "2"],
                           data / "mlflow.log", env=env, cwd=data)
    try:
        running = MLflow(url=f"http://127.0.0.1:{port}", data=data, python=python)
        wait_http(f"{running.url}/health", server, timeout=120)
        yield running
    finally:
        server.stop()


APP = App(name=NAME, kind="ML experiment tracker (React single-page app)", half="heldout",
          built_from=f"PyPI mlflow[auth] {VERSION} (Flask + uvicorn, React UI, SQLite store)",
          missing=_missing, install=_install, start=_start)
