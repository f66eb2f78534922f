"""The agent core: Scheduler → Worker → Verifier driven by the TaskExecutor."""
