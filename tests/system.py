"""Programs from Debian's packages that some tests need (listed in .ci/apt-packages).

``make test`` installs them where it can (root and apt, through
.ci/system-packages). Where one is still missing its tests skip, naming the
package to install; under CI (``CI=true`` or ``TABLEKEEPER_SYSTEM=require``,
which .ci/run sets) a missing one fails them instead.
"""

from __future__ import annotations

import os
import shutil

import pytest


def required() -> bool:
    return os.environ.get("TABLEKEEPER_SYSTEM") == "require" or os.environ.get("CI") == "true"


def need(program: str, package: str) -> str:
    """The path of ``program``, else a skip (a failure under CI) naming ``package``."""
    found = shutil.which(program)  # a path too: found where it is an executable file
    if found:
        return found
    why = (f"{program} is missing: install Debian's {package} "
           f"(`sudo apt-get install {package}`, or `sudo make test`, which installs .ci/apt-packages)")
    if required():
        pytest.fail(why)
    pytest.skip(why)
