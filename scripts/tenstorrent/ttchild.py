"""Child processes of the Python tests: they die with the driver and are
killed as a group.

    p = subprocess.Popen(..., start_new_session=True,
                         preexec_fn=ttchild.pdeathsig)
    ...
    ttchild.kill_group(p)
"""
import os
import signal


def pdeathsig():
    """Child side of Popen: SIGKILL when the driver dies"""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)
    except Exception:
        pass


def kill_group(p, grace=2.0):
    """End @p's process group: SIGTERM, then SIGKILL after @grace s"""
    if p is None or p.poll() is not None:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            return
        try:
            p.wait(grace)
            return
        except Exception:
            pass
