"""Drive a blackhole QEMU through its qtest socket and "tt" command.

Used by the demo and the benchmarks; see docs/system/riscv/blackhole.rst
for the command set.
"""
import os
import socket
import subprocess
import tempfile
import time


class TTQemu:
    def __init__(self, qemu, machine_opts, extra=(), accel="tcg",
                 wrapper=(), pass_fds=()):
        self.dir = tempfile.mkdtemp(prefix="ttq-")
        path = os.path.join(self.dir, "qtest.sock")
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        srv.bind(path)
        srv.listen(1)
        self.start = time.monotonic()
        self.proc = subprocess.Popen(
            [*wrapper, qemu, "-M",
             "blackhole" + ("," + machine_opts if machine_opts else ""), "-accel", accel,
             "-qtest", "unix:" + path, "-qtest-log", "/dev/null", "-display", "none", "-monitor",
             "none", "-serial", "none", *extra], pass_fds=pass_fds)
        srv.settimeout(120)
        self.sock, _ = srv.accept()
        srv.close()
        self.buf = b""

    def cmd(self, line):
        self.sock.sendall(line.encode() + b"\n")
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("QEMU closed the qtest socket")
            self.buf += chunk
        reply, self.buf = self.buf.split(b"\n", 1)
        words = reply.decode().split()
        if words[0] != "OK":
            raise RuntimeError("%s: %s" % (line, reply.decode()))
        return words[1:]

    def readl(self, x, y, role, addr):
        return int(self.cmd("tt readl %d %d %s 0x%x" % (x, y, role, addr))[0],
                   16)

    def read(self, x, y, role, addr, length):
        return bytes.fromhex(
            self.cmd("tt read %d %d %s 0x%x %d" % (x, y, role, addr,
                                                   length))[0][2:])

    def writel(self, x, y, role, addr, val):
        self.cmd("tt writel %d %d %s 0x%x 0x%x" % (x, y, role, addr, val))

    def write(self, x, y, role, addr, data):
        self.cmd("tt write %d %d %s 0x%x %d 0x%s" % (x, y, role, addr,
                                                     len(data), data.hex()))

    def cpu(self, x, y, role):
        idx, halted, pc = self.cmd("tt cpu %d %d %s" % (x, y, role))
        return int(idx), int(halted), int(pc, 16)

    def close(self):
        self.proc.terminate()
        self.proc.wait()
