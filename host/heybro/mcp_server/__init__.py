"""`heybro mcp`: heybro as an MCP server over stdio. Other agents (Claude Desktop, Cursor, VS Code,
scripts) drive the user's own browser through heybro's host — whole tasks by heybro's planner,
worker and verifier, or page calls through heybro's own act path — with heybro's checks,
confirmations and permissions; every call is a task the user sees in the side panel."""
