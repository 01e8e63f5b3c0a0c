"""What several test files share."""

import signal
import subprocess
import sys
import time

import pytest


@pytest.fixture
def interrupt():
    """`interrupt(code)`: runs `code` in a fresh interpreter, waits for it to print 'ready',
    lets it work a second (mid-search), sends SIGINT, and returns the process and when the
    signal was sent."""

    def run(code):
        p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        assert p.stdout.readline().strip() == "ready"
        time.sleep(1.0)  # the searches these tests start take minutes or more
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        return p, sent

    return run
