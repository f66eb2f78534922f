"""Starting a Chromium with the heybro extension loaded (for `heybro run`, the demo and tests)."""
