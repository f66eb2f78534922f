"""Information-flow control: where each value of a task came from (the user's words, a secret
for its site, what a page showed) and what of a value would leave for a site (`Ledger.outgoing`).
The host's sinks (agent/sinks.py) decide from it what may go where; the model is never asked."""
