"""What a person runs to repair the link between the extension and the host.

One text for the host's error messages, `heybro doctor`, the README and the extension's panel (it
reaches the extension through the generated schema files). The update command is what updates an
installation made as the README says: a git clone with heybro installed into its `.venv`.
"""

from __future__ import annotations

FIXES: dict[str, str] = {
    "not_installed": "heybro install",
    "not_responding": "heybro doctor",
    "wrong_version": "git pull && .venv/bin/pip install -e . && .venv/bin/heybro install",
}

# Said with a fix where the command alone is not enough: where to run it, what to do after it.
FIX_NOTES: dict[str, str] = {
    "wrong_version": "Update both from your heybro folder (the git clone), then reload the "
                     "extension at chrome://extensions.",
}
