"""Shared by the package's tests: the `gpu` marker, and the gemmscope command line
(GEMMSCOPE_CLI, set by ctest) for the tests that hold the package's messages against
the ones it prints."""
import os
import re
import subprocess

import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs PyTorch with a CUDA GPU and the kernels (skipped otherwise)")


@pytest.fixture(scope="session")
def cli():
    """Runs `gemmscope ARGS...` and returns (exit status, stdout, the message of its
    error line with the "gemmscope: " prefix taken off and each --option-name spelled
    option_name, as the Python parameter is)."""
    path = os.environ.get("GEMMSCOPE_CLI")
    if not path or not os.path.exists(path):
        pytest.skip("the gemmscope command line is not built (GEMMSCOPE_CLI unset)")

    def run(*args):
        done = subprocess.run([path, *map(str, args)], capture_output=True, text=True, check=False)
        message = done.stderr.strip()
        if message.startswith("gemmscope: "):
            message = message[len("gemmscope: "):]
        # "--base-offset = 9 ..." names the option whose value is refused: base_offset.
        message = re.sub(r"--([a-z][a-z-]*)(?=\[| =| count =)", lambda m: m.group(1).replace("-", "_"), message)
        return done.returncode, done.stdout, message

    return run
