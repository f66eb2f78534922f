"""A host of a newer protocol (2) that writes its own envelope version, v: 2, as a real newer host
may. `error` mode answers the hello with a typed version_mismatch; `hello_ok` mode accepts it and
says it speaks protocol 2 (the extension must notice and stop)."""
import json
import struct
import sys

mode = sys.argv[1]
n = struct.unpack("=I", sys.stdin.buffer.read(4))[0]
hello = json.loads(sys.stdin.buffer.read(n))
if mode == "error":
    reply = {"v": 2, "id": "new0", "type": "error", "re": hello["id"], "payload": {
        "code": "version_mismatch", "message": "This host speaks protocol 2.",
        "detail": {"host_protocol": 2, "host_version": "2.0.0"}}}
else:
    reply = {"v": 2, "id": "new0", "type": "hello_ok", "re": hello["id"], "payload": {
        "protocol": 2, "host_version": "2.0.0", "pid": 1, "log_file": "/dev/null",
        "max_message_bytes": 1048576}}
body = json.dumps(reply).encode()
sys.stdout.buffer.write(struct.pack("=I", len(body)) + body)
sys.stdout.buffer.flush()
sys.stdin.buffer.read()
