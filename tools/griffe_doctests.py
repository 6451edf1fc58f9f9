"""A griffe extension for the documentation site (mkdocs.yml): the doctest
examples of a docstring (a run of lines from one starting with ``>>>`` to
the next blank line) become fenced ``pycon`` blocks, so the API reference
shows them as code rather than as Markdown quotes. The docstrings stay plain
doctests, as pytest runs them."""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with each doctest example fenced (tests/test_docs.py has
    examples); fenced code is left alone."""
    out: list[str] = []
    in_fence = in_example = False
    for line in text.split("\n"):
        stripped = line.lstrip()
        if in_example and not stripped:
            out.append("```")
            in_example = False
        if stripped.startswith("```") and not in_example:
            in_fence = not in_fence
        elif not in_fence and not in_example and stripped.startswith(">>>"):
            out.append("```pycon")
            in_example = True
        out.append(line)
    if in_example:
        out.append("```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fence the doctest examples of every docstring griffe reads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
