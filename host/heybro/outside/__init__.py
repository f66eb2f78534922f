"""Outside agents acting through heybro (`heybro mcp`): their page-level calls run as one heybro
task, through heybro's own act path — the worker's tool definitions, re-finding, expectation
checks, trusted input and the user's confirmation of risky actions."""
