"""Drives a control socket session against a compiled program.

usage: control_session.py [--wait HANDLER=VALUE] [--signal] SESSION PROGRAM ARGS...

Starts PROGRAM ARGS (which include --control PORT or --control unix:PATH;
FREEPORT stands for a TCP port that is free), connects, and sends each line of the file SESSION as a command (a line
`#raw TEXT` sends TEXT with Python escapes, no line ending added; a line
`#wait HANDLER=VALUE` reads HANDLER until it is VALUE and prints
`waited HANDLER=VALUE`, or `timeout HANDLER=LAST` after 20 s). Every
reply is printed as the repr of its exact bytes:

    > READ c1.count
    < b"200 Read handler 'c1.count' OK\\r\\nDATA 1\\r\\n5"

--wait first reads HANDLER until it is VALUE, silently (the program serves
clients while packets still flow). --signal sends SIGTERM after the session
instead of expecting the program to end by itself. Then the program's exit
status, stdout and stderr are printed.
"""
import os
import re
import signal
import socket
import subprocess
import sys
import time


def connect(spec):
    deadline = time.time() + 20
    while True:
        s = None
        try:
            if spec.startswith("unix:"):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(spec[5:])
            else:
                s = socket.create_connection(("127.0.0.1", int(spec)))
            s.settimeout(20)
            return s
        except OSError:
            if s:
                s.close()
            if time.time() > deadline:
                raise
            time.sleep(0.02)


class Reader:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise EOFError("connection closed")
        self.buf += data

    def line(self):
        while b"\r\n" not in self.buf:
            self.fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line + b"\r\n"

    def take(self, n):
        while len(self.buf) < n:
            self.fill()
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def reply(self, command):
        """One complete response: status lines, then DATA for a read."""
        out = b""
        while True:
            line = self.line()
            out += line
            if line[3:4] != b"-":
                break
        words = command.split()
        if out.startswith(b"200 ") and words and \
                words[0].upper() in ("READ", "GET"):
            data = self.line()
            out += data
            m = re.match(rb"DATA (\d+)\r\n", data)
            out += self.take(int(m.group(1)))
        return out


def wait_for(sock, reader, handler, value):
    """Reads `handler` until it is `value`; the last reply."""
    deadline = time.time() + 20
    while True:
        sock.sendall(b"READ " + handler.encode() + b"\r\n")
        got = reader.reply("READ")
        if got.endswith(b"\r\n" + value.encode()) or time.time() > deadline:
            return got
        time.sleep(0.02)


def main():
    args = sys.argv[1:]
    wait = None
    send_signal = False
    while args[0].startswith("--"):
        if args[0] == "--wait":
            wait = args[1].split("=", 1)
            args = args[2:]
        elif args[0] == "--signal":
            send_signal = True
            args = args[1:]
    session, cmd = args[0], args[1:]
    if "FREEPORT" in cmd:
        # A port nobody listens on now (the program binds it right after).
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
        probe.close()
        cmd = [port if a == "FREEPORT" else a for a in cmd]
    spec = cmd[cmd.index("--control") + 1]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sock = connect(spec)
    reader = Reader(sock)
    print("greeting", repr(reader.line()))
    if wait:
        wait_for(sock, reader, wait[0], wait[1])
    pending = ""  # sent, not yet a complete line
    with open(session) as f:
        for line in f.read().splitlines():
            if line.startswith("#wait "):
                handler, value = line[6:].split("=", 1)
                got = wait_for(sock, reader, handler, value)
                if got.endswith(b"\r\n" + value.encode()):
                    print("waited", line[6:])
                else:
                    print("timeout", handler + "=" + got.split(b"\r\n")[-1].decode())
                continue
            if line.startswith("#raw "):
                text = line[5:].encode().decode("unicode_escape").encode("latin-1")
                print(">", repr(text))
            else:
                text = line.encode() + b"\r\n"
                print(">", line)
            sock.sendall(text)
            pending += text.decode("latin-1")
            # A reply for every command completed by this send.
            lines = re.split(r"\r\n|\r|\n", pending)
            pending = lines.pop()
            for command in lines:
                if command.strip():
                    print("<", repr(reader.reply(command)))
    # What the server sends before it closes (after QUIT) or nothing.
    sock.settimeout(2)
    try:
        rest = sock.recv(65536)
        print("closed" if rest == b"" else "more " + repr(rest))
    except socket.timeout:
        print("open")
    if send_signal:
        proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        # A program that does not end fails the test; it is not left behind.
        proc.kill()
        out, err = proc.communicate()
        print("killed: still running 20 s after the session")
    sock.close()
    print("exit", proc.returncode)
    sys.stdout.write(out.decode())
    sys.stdout.write(err.decode())


main()
