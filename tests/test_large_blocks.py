"""A web process gives large blocks of memory back to the system when they are freed
(``tdmanager.asgi.give_back_large_blocks``): a decoded image, a layout file's text. With glibc's
default, the first large block freed raised the size from which blocks are mapped apart, and the
blocks after it stayed with the process (eight hostile layout imports left it 150 MB larger)."""

import subprocess
import sys

import pytest

CHILD = """
import sys
sys.path.insert(0, ".")
{setup}
def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
first = bytearray(24 * 1024 * 1024)  # a large block freed: glibc's threshold rises to its size
del first
base = rss_mb()
held = [bytearray(2 * 1024 * 1024) for _ in range(20)]  # 40 MB in blocks under the risen threshold
del held
print(rss_mb() - base)
"""


def kept_after_free(setup: str) -> float:
    out = subprocess.run([sys.executable, "-c", CHILD.format(setup=setup)], capture_output=True, text=True, check=True)
    return float(out.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_blocks_of_a_few_mb_go_back_to_the_system_when_freed():
    setup = "from tdmanager.asgi import give_back_large_blocks\nassert give_back_large_blocks()"
    assert kept_after_free("import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'tdmanager.settings')\nimport django\ndjango.setup()\n" + setup) < 8
    assert kept_after_free("") > 30  # glibc's default: the 40 MB stay with the process
