"""The DOM agent's content script is generated from its ES modules (scripts/gen_content_script.py):
the committed file must be what the modules say, and the generator must refuse what it cannot
translate rather than write something that runs differently."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("gen_content_script", ROOT / "scripts" / "gen_content_script.py")
assert spec and spec.loader
gen = importlib.util.module_from_spec(spec)
sys.modules["gen_content_script"] = gen
spec.loader.exec_module(gen)


def test_committed_content_script_is_up_to_date() -> None:
    committed = (ROOT / gen.OUT).read_text(encoding="utf-8")
    assert committed == gen.build(), "run: python3 scripts/gen_content_script.py"


def test_manifest_injects_the_generated_script_at_document_start() -> None:
    manifest = json.loads((ROOT / "manifest.json").read_text())
    [cs] = manifest["content_scripts"]
    assert cs["js"] == [gen.OUT] and cs["run_at"] == "document_start" and cs["all_frames"] is True
    # The agent keeps to the extension's isolated world, and nothing of heybro runs in the page's
    # own (browser dialogs are answered through the debugger, requests heard from the browser).
    assert "world" not in cs
    # No module is web-accessible any more: pages cannot probe for the extension through them.
    assert "web_accessible_resources" not in manifest


def test_every_module_keeps_its_own_scope_and_its_imports(tmp_path: Path) -> None:
    """Two modules with the same private name, an aliased import and an export list."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "a.js").write_text('const secret = "a";\nexport function hello() { return secret; }\nconst two = 2;\nexport { two };\n')
    (lib / "b.js").write_text('import { hello as hi, two } from "./a.js";\nconst secret = "b";\n'
                              'globalThis.out = [hi(), two, secret];\n')
    old = gen.ROOT
    gen.ROOT = tmp_path
    try:
        script = gen.build("lib/b.js")
    finally:
        gen.ROOT = old
    res = subprocess.run(["node", "-e", script + "\nconsole.log(JSON.stringify(globalThis.out))"],
                         capture_output=True, text=True, check=True)
    assert json.loads(res.stdout) == ["a", 2, "b"]


@pytest.mark.parametrize("source", [
    'import * as all from "./a.js";\n',
    'import a from "./a.js";\n',
    "export default function f() {}\n",
    "export let counter = 0;\n",
    'const x = 1;\nexport { x as y };\n',
    "await Promise.resolve();\n",
    "const here = import.meta.url;\n",
])
def test_forms_without_a_faithful_translation_are_refused(tmp_path: Path, source: str) -> None:
    (tmp_path / "a.js").write_text("export const v = 1;\n")
    (tmp_path / "m.js").write_text(source)
    old = gen.ROOT
    gen.ROOT = tmp_path
    try:
        with pytest.raises(gen.Unsupported):
            gen.build("m.js")
    finally:
        gen.ROOT = old


def test_import_cycles_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text('import { a } from "./a.js";\nexport const b = 2;\n')
    old = gen.ROOT
    gen.ROOT = tmp_path
    try:
        with pytest.raises(gen.Unsupported, match="cycle"):
            gen.build("a.js")
    finally:
        gen.ROOT = old
