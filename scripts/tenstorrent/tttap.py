"""TAP output of the project's Python tests, one implementation for all.

    import tttap

    tttap.ok(cond, "what it checks")    # "ok N - ..." or "not ok N - ..."
    tttap.skip("what", "why not here")  # "ok N - what # SKIP why..."
    tttap.diag("a note")                # "# a note"
    sys.exit(tttap.done())              # the plan "1..N"; 1 if one failed

A test whose checks report out of order (from another process) gives
the plan first, tttap.plan(n), and each check its number:
tttap.ok(cond, what, number=k).

Lines are flushed as they are printed, so that a test killed by its
timeout still shows how far it got.  tests/run-tests.sh counts the "ok"
and "not ok" lines; the plan goes last, as the firmware tests print it.
"""
import sys

_count = 0
_failed = 0
_planned = None


def plan(n):
    """Announce @n checks now rather than counting them at done()"""
    global _planned
    _planned = n
    print("1..%d" % n, flush=True)


def ok(cond, what, number=None):
    """Report one check; returns @cond so a test can stop on a failure."""
    global _count, _failed
    _count += 1
    _failed += not cond
    print("%sok %d - %s" % ("" if cond else "not ",
                            _count if number is None else number, what),
          flush=True)
    return cond


def skip(what, why):
    """A check that cannot run here, and why"""
    global _count
    _count += 1
    print("ok %d - %s # SKIP %s" % (_count, what, why), flush=True)


def diag(text):
    """A comment line per line of @text"""
    for line in str(text).splitlines() or [""]:
        print("# " + line, flush=True)


def skip_all(why):
    """Nothing can run here (a missing input): the plan says why"""
    print("1..0 # SKIP " + why, flush=True)
    return 0


def done():
    """Print the plan (unless given first); the exit status for sys.exit():
    1 if a check failed or fewer ran than planned"""
    if _planned is None:
        print("1..%d" % _count, flush=True)
    return 1 if _failed or (_planned or 0) > _count else 0
