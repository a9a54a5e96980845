#!/usr/bin/env python3
# Runs a compiled npcc program on a FIFO that never ends, feeds it a pcap,
# waits until it has read everything, then sends a signal and reports how
# the program ended:
#   interrupt.py SIG PROG IN.pcap FIFO OUT.pcap STATS.json
# prints "exit status N", then the program's stderr. Deterministic: the
# program is blocked reading the FIFO when the signal arrives.
import fcntl
import os
import signal
import struct
import subprocess
import sys
import termios
import time

sig_name, prog, in_pcap, fifo, out_pcap, stats = sys.argv[1:7]
sig = getattr(signal, "SIG" + sig_name)
if os.path.exists(fifo):
    os.unlink(fifo)
os.mkfifo(fifo)
# lit's workers ignore SIGINT, and a program keeps ignoring a signal that was
# ignored when it started (as under nohup): give the program the default.
p = subprocess.Popen([prog, "--in", fifo, "--out", out_pcap, "--stats-json",
                      stats], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
w = os.open(fifo, os.O_WRONLY)  # waits for the program to open it
with open(in_pcap, "rb") as f:
    data = f.read()
os.write(w, data)
# Wait until the program has taken every byte out of the FIFO...
deadline = time.time() + 60
while time.time() < deadline:
    pending = struct.unpack("i", fcntl.ioctl(w, termios.FIONREAD, b"\0" * 4))[0]
    if pending == 0:
        break
    time.sleep(0.01)
# ...and is blocked in its next read.
time.sleep(0.5)
p.send_signal(sig)
try:
    out, err = p.communicate(timeout=60)
except subprocess.TimeoutExpired:
    p.kill()
    out, err = p.communicate()
    print("timeout: the program did not stop")
os.close(w)
print("exit status %d" % p.returncode)
sys.stdout.write(out.decode())
sys.stdout.write(err.decode())
