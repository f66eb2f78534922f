"""The host's local websocket endpoint for the terminal (`heybro run`)."""
