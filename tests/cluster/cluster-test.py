#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Multi-chip clusters through tools/tt-cluster, one QEMU per chip.

    cluster-test.py BUILD_DIR

P300, QuietBox 2 and a 32-chip Galaxy (one Tensix column per chip), every
Ethernet channel running tests/firmware/eth-ping.c from reset: each link
must come up and carry a stamp both ways that names the peer its
base-firmware results name; unlinked channels report themselves unused.
Also: links that stay up while the ERISC cores that last sent sleep in
WFI (the link is read again by the main loop once no core polls it), the
QuietBox 2 over TCP, a chip killed under a running P300 (its peer's links
go down, the peer keeps running), the same while the peers stream to each
other (tests/firmware/eth-bench.c; the killed peer's end of the socket is
seen by the polling core's read), 64 rounds of L1 writes of mixed sizes
checked word by word (tests/firmware/eth-stream.c: frames batched with
spin parking, one by one without), a tt-umd cluster
descriptor as the topology, a token three times around the QuietBox 2
ring (ERISC firmware forwarding over TT-link and the NOC), a P300 split
over two network namespaces linked by TCP (as root with iproute2;
skipped otherwise), a P300 through
the libttsim ABI from build/libttsim/p300 (tt-umd's multichip mode), bad
topologies, and stop leaving nothing behind.  TAP output.
"""
import importlib.machinery
import importlib.util
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "..")
TOOL = os.path.join(SRC, "tools", "tt-cluster")
ONE_COL = "harvested-tensix-cols=2:3:4:5:6:7:10:11:12:13:14:15:16"
NCORES = 10 * 5         # Tensix cores of a one-column chip: ERISCs follow
RESULT = 0x30010
PINGED, UNUSED = 0x600d0001, 0x600d0002
CHANNELS = 12           # logical channels of a Blackhole (5 and 8 fused)

sys.path.insert(0, os.path.join(SRC, "scripts", "tenstorrent"))
import ttabi  # noqa: E402
from tttap import ok, done  # noqa: E402

EB = ttabi.load("tests/firmware/eth-bench.h")     # its L1 words
loader = importlib.machinery.SourceFileLoader("tt_cluster", TOOL)
spec = importlib.util.spec_from_loader("tt_cluster", loader)
ttc = importlib.util.module_from_spec(spec)
loader.exec_module(ttc)



def tool(build, d, *args, qemu_args=()):
    cmd = [sys.executable, TOOL] + list(args) + [
        "--dir", d, "--qemu", os.path.join(build, "qemu",
                                           "qemu-system-riscv32")]
    if qemu_args:
        cmd += ["--"] + list(qemu_args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


def machine(build):
    return ["-M", "blackhole,%s,erisc-firmware=%s" % (
        ONE_COL, os.path.join(build, "firmware", "eth-ping.elf"))]


def result(d, chip, logical):
    return ttc.hmp_word(d, chip, NCORES + 2 * logical, RESULT)


def wait_results(d, nchips, links, timeout=60):
    """True once every channel of every chip has its expected result."""
    linked = {(a, ca) for a, ca, b, cb in links} | \
             {(b, cb) for a, ca, b, cb in links}
    deadline = time.time() + timeout
    while True:
        bad = []
        for chip in range(nchips):
            for ch in range(CHANNELS):
                want = PINGED if (chip, ch) in linked else UNUSED
                got = result(d, chip, ch)
                if got != want:
                    bad.append("chip %d channel %d: %s" % (
                        chip, ch, hex(got) if got is not None else "?"))
        if not bad or time.time() > deadline:
            if bad:
                print("# " + "; ".join(bad[:8]))
            return not bad
        time.sleep(0.2)


def run_cluster(build, topo, extra=(), wait_timeout=120, label=None):
    d = tempfile.mkdtemp(prefix="tt-cluster-test-")
    label = label or topo
    t0 = time.time()
    r = tool(build, d, "start", topo, *extra, qemu_args=machine(build))
    started = time.time() - t0
    if not ok(r.returncode == 0, "%s: start" % label):
        print("# " + (r.stderr or r.stdout).replace("\n", "\n# "))
        shutil.rmtree(d, ignore_errors=True)
        return None
    r = tool(build, d, "wait", "--timeout", str(wait_timeout))
    ok(r.returncode == 0, "%s: every link up (%s)" % (label, r.stdout.strip()))
    st = ttc.load_state(d)
    ok(wait_results(d, len(st["pids"]), st["links"]),
       "%s: every link carried a stamp both ways, %d links" %
       (label, len(st["links"])))
    r = tool(build, d, "status")
    print("# %s started in %.2f s; %s" % (
        label, started, r.stdout.strip().splitlines()[-1]))
    return d, st


def stop(build, d, st):
    r = tool(build, d, "stop")
    gone = not any(ttc.alive(p) for p in st["pids"])
    left = [f for f in os.listdir(d)
            if f.endswith((".sock", ".mon", ".gdb", ".json"))]
    ok(r.returncode == 0 and gone and not left,
       "stop: every chip gone, no socket left")
    shutil.rmtree(d, ignore_errors=True)


def links_stay_up(d, nchips, secs, label):
    """Each link still up after @secs: every chip read its peers' keepalives
    while its cores, having sent last, sit in WFI"""
    time.sleep(secs)
    down = ["chip %d channel %s" % (chip, s[0]) for chip in range(nchips)
            for s in ttc.link_states(d, chip) if s[2] != "up"]
    ok(not down, "%s: links still up %.1f s later, ERISCs in WFI%s" % (
        label, secs, " (down: %s)" % ", ".join(down) if down else ""))


def test_killed_mid_transfer(build):
    """Two chips stream to each other (eth-bench); one is killed mid-run"""
    d = tempfile.mkdtemp(prefix="tt-cluster-test-")
    fw = os.path.join(build, "firmware", "eth-bench.elf")
    r = tool(build, d, "start", ttc.pair_descriptor(d), qemu_args=[
        "-M", "blackhole,%s,erisc-firmware=%s" % (ONE_COL, fw)])
    if not ok(r.returncode == 0, "two chips streaming: start"):
        shutil.rmtree(d, ignore_errors=True)
        return
    st = ttc.load_state(d)
    # the ping-pong's total lands once the streaming has begun
    deadline = time.time() + 60
    while not ttc.hmp_word(d, 0, NCORES, EB["ETH_BENCH_RESULTS"]) and \
            time.time() < deadline:
        time.sleep(0.01)
    running = not ttc.hmp_word(d, 0, NCORES, EB["ETH_BENCH_DONE"])
    os.kill(st["pids"][1], signal.SIGKILL)
    deadline = time.time() + 10
    states = []
    while time.time() < deadline:
        states = ttc.link_states(d, 0)
        if states and states[0][2] == "down":
            break
        time.sleep(0.1)
    ok(running and states and states[0][2] == "down",
       "two chips streaming: chip 1 killed mid-run (%s), chip 0's link "
       "goes down" % ("streaming" if running else "but the run had ended"))
    ok(ttc.alive(st["pids"][0]) and "Blackhole" in ttc.hmp(d, 0, "info tt"),
       "two chips streaming: chip 0 keeps running")
    stop(build, d, st)


def test_stream(build, park):
    """Two chips, 64 rounds of 16 KiB in L1 writes of 16 B-4 KiB, each
    checked word by word on the receiver (eth-stream.c).  With spin
    parking the senders' frames go out in batches (info tt counts them);
    without, one by one."""
    label = "stream, spin-park=%s" % ("on" if park else "off")
    d = tempfile.mkdtemp(prefix="tt-cluster-test-")
    fw = os.path.join(build, "firmware", "eth-stream.elf")
    r = tool(build, d, "start", ttc.pair_descriptor(d), qemu_args=[
        "-M", "blackhole,%s,erisc-firmware=%s,spin-park=%s" % (
            ONE_COL, fw, "on" if park else "off")])
    if not ok(r.returncode == 0, "%s: start" % label):
        shutil.rmtree(d, ignore_errors=True)
        return
    st = ttc.load_state(d)
    deadline = time.time() + 120
    res = [None, None]
    while time.time() < deadline:
        res = [ttc.hmp_word(d, c, NCORES, RESULT) for c in (0, 1)]
        if all(v and v >> 16 == 0x600d for v in res):
            break
        time.sleep(0.2)
    bad = ttc.hmp_word(d, 1, NCORES, RESULT + 4)
    ok(res == [PINGED, PINGED], "%s: every word of 64 rounds arrived, in "
       "order (results %s, %s words wrong)" % (
           label, " ".join(hex(v or 0) for v in res), bad))
    # "frames tx N (M in K batches)" of the sender's channel 0, resends
    m = re.search(r"channel 0 \(logical 0\): up.*?frames tx (\d+) \((\d+) "
                  r"in (\d+) batches\).*?txq0 \d+ cmds \d+ unacked (\d+) "
                  r"resends", ttc.hmp(d, 0, "info tt"))
    sent, batched, batches, resends = map(int, m.groups()) if m else \
        (0, -1, 0, -1)
    # the receiver's packets dropped as early: one came before those it
    # follows (the link lost or reordered them; a resend after a loaded
    # host's stall only repeats packets, dropped as late)
    m = re.search(r"channel 0 \(logical 0\): up.*? rx \d+ \((\d+) early\)",
                  ttc.hmp(d, 1, "info tt"))
    early = int(m.group(1)) if m else -1
    ok(early == 0, "%s: every packet arrived in order, none early (%d "
       "early, %d resends)" % (label, early, resends))
    if park:
        ok(batched * 2 >= sent and batched >= 2 * batches,
           "%s: most frames went out in batches (%d of %d frames in %d "
           "batches)" % (label, batched, sent, batches))
    else:
        ok(sent > 64 * 17 and batched == 0, "%s: every frame went out "
           "alone (%d frames, %d batched)" % (label, sent, batched))
    stop(build, d, st)


def test_p300_peer_killed(build):
    c = run_cluster(build, "p300")
    if not c:
        return
    d, st = c
    os.kill(st["pids"][1], signal.SIGKILL)
    deadline = time.time() + 10
    states = []
    while time.time() < deadline:
        states = ttc.link_states(d, 0)
        if states and all(s[2] == "down" for s in states):
            break
        time.sleep(0.1)
    ok(states and all(s[2] == "down" for s in states),
       "p300: chip 1 killed, chip 0 sees both links down")
    ok("Blackhole" in ttc.hmp(d, 0, "info tt"),
       "p300: chip 0 keeps running")
    stop(build, d, st)


def test_descriptor(build):
    """A tt-umd cluster descriptor (the P300's shape) as the topology"""
    desc = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
    desc.write("""arch: {0: blackhole, 1: blackhole}
chips: {}
chip_unique_ids: {0: 9493540888584, 1: 9493540888585}
ethernet_connections:
  - [{chip: 0, chan: 2}, {chip: 1, chan: 9}]
  - [{chip: 0, chan: 3}, {chip: 1, chan: 8}]
ethernet_connections_to_remote_devices: []
chips_with_mmio: [{0: 1}, {1: 0}]
harvesting: {}
boards:
  - [{board_id: 4746770444292}, {board_type: p300}, {chips: [1, 0]}]
asic_locations: {0: 0, 1: 1}
""")
    desc.close()
    c = run_cluster(build, desc.name, label="descriptor")
    if c:
        d, st = c
        info = ttc.hmp(d, 0, "info tt")
        ok("peer board 0x000004513190f004 asic location 1 channel 11" in info,
           "descriptor: chip 0 channel 2 reaches chip 1 channel 11 "
           "(logical 9)")
        stop(build, d, st)
    os.unlink(desc.name)


def test_bad(build):
    d = tempfile.mkdtemp(prefix="tt-cluster-test-")
    bad = [
        ("nosuch", "no cluster 'nosuch'"),
    ]
    descs = [
        ("[{chip: 0, chan: 12}, {chip: 1, chan: 0}]",
         "chip 0 channel 12: a Blackhole has logical channels 0-11"),
        ("[{chip: 0, chan: 1}, {chip: 1, chan: 0}]\n"
         "  - [{chip: 0, chan: 1}, {chip: 1, chan: 2}]",
         "chip 0 channel 1 is linked to both"),
        ("[{chip: 0, chan: 1}, {chip: 3, chan: 0}]", "no chip 3"),
    ]
    files = []
    for links, err in descs:
        f = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
        f.write("arch: {0: blackhole, 1: blackhole}\n"
                "ethernet_connections:\n  - %s\n" % links)
        f.close()
        files.append(f.name)
        bad.append((f.name, err))
    for topo, err in bad:
        r = tool(build, d, "start", topo)
        ok(r.returncode == 1 and err in r.stderr,
           "bad topology: %s" % err)
    for f in files:
        os.unlink(f)
    shutil.rmtree(d, ignore_errors=True)


def sh(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True).returncode == 0


def test_netns(build):
    """A P300's two chips in two network namespaces joined by a veth
    pair, linked by TCP across them (tt-cluster print --tcp --host)"""
    if os.getuid() != 0 or not shutil.which("ip"):
        print("# netns skipped: needs root and iproute2")
        return
    tag = "%d" % (os.getpid() % 100000)
    ns = ["tt-eth-a" + tag, "tt-eth-b" + tag]
    veth = ["tta" + tag, "ttb" + tag]
    addr = ["10.231.7.1", "10.231.7.2"]
    if not sh("ip", "netns", "add", ns[0]):
        print("# netns skipped: cannot create a network namespace")
        return
    d = tempfile.mkdtemp(prefix="tt-cluster-test-")
    procs = []
    try:
        ok(sh("ip", "netns", "add", ns[1]) and
           sh("ip", "link", "add", veth[0], "type", "veth", "peer", "name",
              veth[1]) and
           all(sh("ip", "link", "set", veth[i], "netns", ns[i]) and
               sh("ip", "-n", ns[i], "addr", "add", addr[i] + "/24", "dev",
                  veth[i]) and
               sh("ip", "-n", ns[i], "link", "set", veth[i], "up") and
               sh("ip", "-n", ns[i], "link", "set", "lo", "up")
               for i in range(2)),
           "netns: two namespaces joined by a veth pair")
        out = tool(build, d, "print", "p300", "--tcp", "--port-base",
                   str(random.randrange(20000, 60000, 100)), "--host",
                   "0=" + addr[0], qemu_args=machine(build)).stdout
        cmds = [l.split() for l in out.splitlines() if not l.startswith("#")]
        ok(len(cmds) == 2 and "addr.host=%s" % addr[0] in out,
           "netns: chip 1 connects to chip 0's address")
        for i, cmd in enumerate(cmds):
            log = open(os.path.join(d, "chip%d.log" % i), "w")
            procs.append(subprocess.Popen(["ip", "netns", "exec", ns[i]] +
                                          cmd, stdout=log,
                                          stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL))
        links = [(0, 2, 1, 9), (0, 3, 1, 8)]
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                ttc.hmp(d, 0, "info status", timeout=2)
                ttc.hmp(d, 1, "info status", timeout=2)
                break
            except (OSError, ttc.ClusterError):
                time.sleep(0.1)
        ok(wait_results(d, 2, links), "netns: both links pinged both ways "
           "over TCP between the namespaces")
    finally:
        for i, p in enumerate(procs):
            try:
                ttc.hmp(d, i, "quit", timeout=2)
            except (OSError, ttc.ClusterError):
                pass
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        for n in ns:
            sh("ip", "netns", "del", n)
        shutil.rmtree(d, ignore_errors=True)


def test_ring(build):
    """QuietBox 2: a token three times around the ring (eth-ring.c): over
    TT-link between chips, by a NOC write between a chip's two ring
    channels, one added per chip"""
    d = tempfile.mkdtemp(prefix="tt-cluster-test-")
    fw = os.path.join(build, "firmware", "eth-ring.elf")
    r = tool(build, d, "start", "qb2", qemu_args=[
        "-M", "blackhole,%s,erisc-firmware=%s" % (ONE_COL, fw)])
    if not ok(r.returncode == 0, "ring: start"):
        return
    st = ttc.load_state(d)
    # chip -> (ring-in, ring-out) logical channels, their last tokens
    want = {0: ((2, 13), (8, 9)), 1: ((3, 10), (4, 10)),
            2: ((4, 11), (8, 11)), 3: ((3, 12), (5, 12))}
    deadline = time.time() + 60
    got = {}
    while time.time() < deadline:
        got = {(c, ch): result(d, c, ch) for c, ends in want.items()
               for ch, _ in ends}
        if all(got[(c, ch)] == 0x600d0000 | t for c, ends in want.items()
               for ch, t in ends):
            break
        time.sleep(0.2)
    ok(got.get((0, 2)) == 0x600d000d, "ring: the token came back to chip 0 "
       "as 13 after 3 laps of 4 chips (%s)" % hex(got.get((0, 2)) or 0))
    ok(all(got[(c, ch)] == 0x600d0000 | t for c, ends in want.items()
           for ch, t in ends), "ring: every ring channel handled the "
       "token of its place on the last lap")
    stop(build, d, st)


def test_libttsim(build, script, label, *extra):
    """build/libttsim/p300 through the libttsim ABI (@script)"""
    env = dict(os.environ, TT_EMU_QEMU=os.path.join(
        build, "qemu", "qemu-system-riscv32"))
    r = subprocess.run([sys.executable, os.path.join(HERE, script),
                        os.path.join(build, "libttsim", "p300",
                                     "libttsim.so")] + list(extra),
                       capture_output=True, text=True, timeout=600, env=env)
    lines = [l for l in r.stdout.splitlines() if l.startswith(("ok", "not"))]
    for l in lines:
        ok(l.startswith("ok"), label + ": " + l.split(" - ", 1)[-1])
    if r.returncode or not lines:
        print("# " + r.stderr.replace("\n", "\n# "))
        ok(False, label + ": the host program ran to the end")


def mem_available_gib():
    for line in open("/proc/meminfo"):
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) / (1 << 20)
    return 0


def main():
    build = os.path.abspath(sys.argv[1])
    test_bad(build)
    for topo in ("p300", "qb2"):
        c = run_cluster(build, topo)
        if c:
            links_stay_up(c[0], len(c[1]["pids"]), 2.5, topo)
            stop(build, *c)
    port = random.randrange(20000, 60000, 100)
    c = run_cluster(build, "qb2", ("--tcp", "--port-base", str(port)),
                    label="qb2 over TCP")
    if c:
        stop(build, *c)
    test_p300_peer_killed(build)
    test_killed_mid_transfer(build)
    test_stream(build, True)
    test_stream(build, False)
    test_descriptor(build)
    test_netns(build)
    test_ring(build)
    test_libttsim(build, "libttsim-cluster.py", "libttsim p300")
    # ttsim's two-chip build for the same program, when the user gives it
    x2 = os.environ.get("TTSIM_X2_LIB", "")
    test_libttsim(build, "libttsim-bdf.py", "libttsim p300 by PCI device",
                  *([x2] if x2 else []))
    test_libttsim(build, "libttsim-eth.py", "libttsim p300 ERISC program",
                  *([x2] if x2 else []))
    if mem_available_gib() < 6:
        print("# galaxy skipped: under 6 GiB of memory available")
    else:
        c = run_cluster(build, "galaxy", wait_timeout=300)
        if c:
            stop(build, *c)
    return done()


if __name__ == "__main__":
    sys.exit(main())
