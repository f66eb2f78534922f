"""`python -m heybro.native`: the native host Chrome starts (its launcher runs this), with every
capability heybro.app puts together."""

from ..app import host_main

raise SystemExit(host_main())
