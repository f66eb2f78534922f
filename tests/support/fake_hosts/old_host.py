"""An outdated host: answers the handshake with a version mismatch, as a real old host would."""
import json
import struct
import sys

n = struct.unpack("=I", sys.stdin.buffer.read(4))[0]
hello = json.loads(sys.stdin.buffer.read(n))
reply = json.dumps({"v": 1, "id": "old0", "type": "error", "re": hello["id"], "payload": {
    "code": "version_mismatch",
    "message": "The extension speaks protocol 1 and this host 0. Update both."}}).encode()
sys.stdout.buffer.write(struct.pack("=I", len(reply)) + reply)
sys.stdout.buffer.flush()
sys.stdin.buffer.read()
