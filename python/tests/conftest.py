"""What several test files share."""

import signal
import subprocess
import sys
import time

import pytest


def _sigint_as_a_terminal_sends_it():
    # A shell that starts the tests in the background (`./test.sh &`, nohup) hands its children
    # SIGINT ignored, and Python then installs no handler: Ctrl-C could not reach the search.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def interrupt():
    """`interrupt(code)`: runs `code` in a fresh interpreter, waits for it to print 'ready',
    lets it work a second (mid-search), sends SIGINT, and returns the process and when the
    signal was sent. The process is killed when the test ends, so that a search the signal
    failed to stop does not run on."""
    started = []

    def run(code):
        p = subprocess.Popen(
            [sys.executable, "-c", code],
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=_sigint_as_a_terminal_sends_it,
        )
        started.append(p)
        assert p.stdout.readline().strip() == "ready"
        time.sleep(1.0)  # the searches these tests start take minutes or more
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        return p, sent

    yield run
    for p in started:
        if p.poll() is None:
            p.kill()
            p.wait()
