"""Registering the native-messaging host with the user's browsers, and checking that it works."""
