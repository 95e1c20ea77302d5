"""Keep the server's memory flat: glibc's allocator, left to its defaults, holds on to what a busy server frees.

Measured (bench/fuzz_memory.py): 30 calibrations took the server from 141 MB to 663 MB and it never came back,
though nothing leaked. Two glibc defaults did it: every worker thread gets a malloc arena of its own (waitress runs
dozens), and after the first large block (a camera frame) is freed, the threshold above which blocks are mapped
and returned to the system rises to 32 MB, so frames land in those arenas and their pages stay. On a Pi with 1 GB
that is the difference between a game night and a swapping kiosk. With two arenas and a fixed 128 KB threshold the
same 30 calibrations end at 132 MB.
"""

from __future__ import annotations

import ctypes
import logging

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
MMAP_THRESHOLD_BYTES = 128 * 1024
ARENAS = 2


def keep_memory_flat() -> bool:
    """Set glibc's allocator for a long-running threaded server; False where the C library is not glibc.

    Call it before the server starts its threads: arenas already made stay.
    """
    try:  # by its soname: find_library("c") runs ldconfig in a subprocess, a tenth of a second of every start
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    done = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 1 and mallopt(M_ARENA_MAX, ARENAS) == 1
    if not done:
        log.warning("glibc refused the allocator settings; memory may grow under load")
    return done
