"""The README and the documentation pages: every relative link leads to a file
of the repository, and the code cites the pages of docs/, by sections that
exist, never documents outside the repository. (The site's own build, `mkdocs
build --strict`, runs in .ci/run; the pages' examples run as doctests.)"""

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def prose(text: str) -> str:
    """The text of a Markdown page without its fenced blocks and code spans."""
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)
    return re.sub(r"(`+)[^`].*?\1", "", text, flags=re.S)


def relative_links(text: str) -> list[str]:
    """The targets of a page's links and images that are paths in the repository."""
    targets = [m.group(1) for m in LINK.finditer(prose(text))]
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:|#", t)]


def test_links_are_found_in_prose_only():
    text = ("See [a](docs/A.md) and ![b](b.png \"B\"), [web](https://x.org) [c](#c).\n"
            "`[d](D.md)` is code.\n```\n[e](E.md)\n```\n")
    assert relative_links(text) == ["docs/A.md", "b.png"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_to_files(page):
    missing = []
    for target in relative_links(page.read_text(encoding="utf-8")):
        path = (page.parent / target.split("#")[0]).resolve()
        if not path.exists() or ROOT not in path.parents:
            missing.append(target)
    assert not missing, f"{page.relative_to(ROOT)} links to what is not here: {missing}"


def sources() -> list[Path]:
    kinds = {".py", ".js", ".html", ".css"}
    return sorted(p for p in (ROOT / "src").rglob("*") if p.suffix in kinds)


def test_the_code_cites_docs_pages_only():
    outside = re.compile(r"(?<!docs/)\b(?:FORMATS|NUMBA|FAST-MOVEGEN)\.md|\.\./shared")
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in sources()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if outside.search(line)]
    assert not found, "\n".join(found)


def headings(page: str) -> set[str]:
    """The numbers of a docs page's numbered sections (``## 4.`` or ``### 4.2``),
    and of the numbered items of its lists (NUMBA.md's traps)."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    sections = re.findall(r"^#+ (\d+(?:\.\d+)*)\.? ", text, flags=re.M)
    items = re.findall(r"^(\d+)\. ", text, flags=re.M)
    return set(sections) | set(items)


def test_cited_sections_exist():
    cite = re.compile(r"docs/(FORMATS|MOVEGEN)\.md\s+sections?\s+(\d+(?:\.\d+)?)"
                      r"|docs/(NUMBA)\.md\s+trap\s+(\d+)")
    cited = 0
    for path in sources():
        text = path.read_text(encoding="utf-8")
        for m in cite.finditer(text):
            page, number = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            assert number in headings(f"{page}.md"), \
                f"{path.relative_to(ROOT)} cites docs/{page}.md {number}, which it does not have"
            cited += 1
    assert cited >= 20  # the code does cite them: the pattern still matches how it does


def test_doctest_examples_become_code_on_the_site():
    spec = importlib.util.spec_from_file_location("griffe_doctests",
                                                  ROOT / "tools" / "griffe_doctests.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = "Adds.\n\n>>> 1 + 1\n2\n\nDone.\n```\n>>> kept\n```"
    assert module.fence_doctests(text) == (
        "Adds.\n\n```pycon\n>>> 1 + 1\n2\n```\n\nDone.\n```\n>>> kept\n```")
    assert module.fence_doctests(">>> x\n1") == "```pycon\n>>> x\n1\n```"


def test_the_api_reference_shows_every_public_name():
    import ast

    tree = ast.parse((ROOT / "src" / "rackety" / "__init__.py").read_text(encoding="utf-8"))
    public = next(ast.literal_eval(node.value) for node in tree.body
                  if isinstance(node, ast.Assign)
                  and any(getattr(t, "id", None) == "__all__" for t in node.targets))
    page = (ROOT / "docs" / "reference" / "api.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"^::: rackety\.(\w+)$", page, flags=re.M))
    assert len(public) > 10
    assert set(public) - shown == set(), "add them to docs/reference/api.md"
