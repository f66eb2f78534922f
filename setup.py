"""Puts the extension's files into the wheel (as heybro/extension_bundle/), so an installed heybro
can write the unpacked extension and the Chrome Web Store zip without a clone. Everything else
about the package is in pyproject.toml; which files the extension is made of, in
host/heybro/install/bundle.py."""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _bundle():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("heybro_bundle",
                                                  ROOT / "host/heybro/install/bundle.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


class BuildWithExtension(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install uses the clone's files where they are
        _bundle().copy(ROOT, Path(self.build_lib) / "heybro" / "extension_bundle")


setup(cmdclass={"build_py": BuildWithExtension})
