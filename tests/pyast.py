"""``ast.parse`` for the suite's code checks, proof against an interpreter bug.

CPython 3.11 keeps the AST constructor's recursion depth in state the threads of a process share
(gh-106905): a parse that runs while another thread of the test process parses (a live server's
thread, a browser test's helpers) may fail with "AST constructor recursion depth mismatch"
although the source is sound. The parse is then simply run again."""

import ast


def parse(source: str) -> ast.Module:
    for attempt in range(3):
        try:
            return ast.parse(source)
        except SystemError as error:  # only that bug: any other error is the source's
            if "recursion depth mismatch" not in str(error) or attempt == 2:
                raise
    raise AssertionError("unreachable")
