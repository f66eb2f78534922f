"""A broken host: writes plain text on stdout instead of frames (a classic stray print)."""
import sys
import time

sys.stdout.write("Starting up... debug output that should have gone to a log file\n" * 20)
sys.stdout.flush()
time.sleep(30)
