# Measures what a hostile body costs a client (docs/maintainers/decoding.md, "Limits, measured"): a plain-HTTP server
# answering every GET with a chunked body built as it is sent, gzip unless `plain`:
#   rows:    {"results":[{},{},... ]}   every row an empty object
#   blank:   {"results":[<blanks>]}
#   strings: {"results":[{"ticker":"aaaa...(1000)"}, ... ]}
# about BYTES of it before compression (it stops when the client hangs up).
# Usage: python3 scripts/hostile_body_server.py PORT SHAPE BYTES [plain]
import http.server, sys, zlib

port, shape, total = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
plain = len(sys.argv) > 4

def pieces():
    yield b'{"results":['
    unit = {"rows": b"{},", "blank": b" " * 64, "strings": b'{"ticker":"' + b"a" * 1000 + b'"},'}[shape]
    block = unit * (65536 // len(unit) + 1)
    sent = 0
    while sent < total:
        yield block
        sent += len(block)
    yield b'{}]}' if shape != "blank" else b']}'

class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if not plain: self.send_header("Content-Encoding", "gzip")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        z = zlib.compressobj(9, zlib.DEFLATED, 31)
        if plain:
            class Id:
                def compress(self, p): return p
                def flush(self): return b""
            z = Id()
        try:
            for p in pieces():
                out = z.compress(p)
                if out:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(out), out))
            out = z.flush()
            self.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(out), out))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client refused the body: what is being measured
    def log_message(self, *a): pass

http.server.ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
