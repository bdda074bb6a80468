"""The docs stay alive: every relative link in README.md and docs/*.md reaches a file (and a
heading, where it names one), every `make X` they name is a target of the Makefile, every
`python -m stsa …` parses with the command's own arguments, every `python -m bench…` is a
module of bench/, every `make load ROOM=…` is a room, and every `STSA_…` variable the app reads
is in the configuration table. Nothing here starts a server."""

import argparse
import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`([^`]+)`")
MAKE = re.compile(r"(?<![\w./-])make ([a-z][\w-]*)")
PYTHON_M = re.compile(r"python -m (stsa|bench)(\.\w+)?\b([^`#\n]*)")
STSA_COMMAND = re.compile(r"^stsa( [^`]*)$")
ROOM = re.compile(r"make load ROOM=(\w+)")


def where(path: Path, number: int) -> str:
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    return f"{name}:{number}"


def lines(path: Path):
    """(line number, text, in a fenced code block) for each line of a Markdown file."""
    fenced = False
    for number, line in enumerate(path.read_text().splitlines(), 1):
        fence = line.lstrip().startswith("```")
        fenced ^= fence
        yield number, line, fenced or fence


def code(path: Path):
    """(line number, code): each inline code span, and each fenced line without its comment."""
    for number, line, fenced in lines(path):
        if fenced:
            yield number, re.sub(r"\s#\s.*$", "", line)
        else:
            for span in CODE_SPAN.findall(line):
                yield number, span


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for _, line, fenced in lines(path):
        match = re.match(r"#{1,6} (.+)", line)
        if fenced or not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def test_there_are_docs_by_reader():
    names = {path.name for path in DOCS}
    assert {"README.md", "organizers.md", "judges.md", "feed-and-overlays.md", "running.md",
            "performance.md", "developing.md"} <= names, names
    readme = (ROOT / "README.md").read_text().splitlines()
    assert len(readme) <= 200, "README.md: at most ~200 lines; the rest belongs in docs/"


def broken_links(doc: Path) -> list[str]:
    # Links may break across lines: read the prose as one text, code left out, lines kept.
    prose = "\n".join("" if fenced else CODE_SPAN.sub("", line) for _, line, fenced in lines(doc))
    broken = []
    for found in LINK.finditer(prose):
        number, target = prose.count("\n", 0, found.start()) + 1, found.group(1)
        if re.match(r"[a-z][\w+.-]*:", target):  # https:, mailto: and the like
            continue
        path, _, fragment = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            broken.append(f"{where(doc, number)}: {target} names no file")
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(f"{where(doc, number)}: {target} names no heading of {file.name}")
    return broken


def makefile_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([A-Za-z][\w-]*):(?!=)", text, re.M))


def missing_targets(doc: Path) -> list[str]:
    targets = makefile_targets()
    return [f"{where(doc, number)}: `make {target}` is not a target of the Makefile"
            for number, span in code(doc) for target in MAKE.findall(span)
            if target not in targets]


def stsa_parser() -> argparse.ArgumentParser:
    """The parser `python -m stsa` builds, caught as it is about to parse."""
    from stsa import __main__ as command

    class Caught(Exception):
        pass

    found = []

    def catch(parser, *args, **kwargs):
        found.append(parser)
        raise Caught

    original = argparse.ArgumentParser.parse_args
    argparse.ArgumentParser.parse_args = catch  # type: ignore[method-assign]
    try:
        with contextlib.suppress(Caught):
            command.main([])
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
    assert found, "python -m stsa builds no argparse parser"
    return found[0]


def parses(parser: argparse.ArgumentParser, words: list[str]) -> bool:
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            parser.parse_args(words)
        except SystemExit as stop:
            return stop.code == 0
    return True


def commands(doc: Path):
    """(line number, module, words after it) for every `python -m stsa|bench…` named."""
    for number, span in code(doc):
        for package, module, rest in PYTHON_M.findall(span):
            yield number, package + module, rest
        match = STSA_COMMAND.match(span.strip())
        if match:
            yield number, "stsa", match.group(1)


def wrong_commands(doc: Path, parser: argparse.ArgumentParser) -> list[str]:
    wrong = []
    for number, module, rest in commands(doc):
        words = shlex.split(rest.replace("…", ""))
        if module == "stsa":
            if not parses(parser, words):
                wrong.append(f"{where(doc, number)}: `python -m stsa {' '.join(words)}` is not "
                             f"a command of stsa/__main__.py")
        elif module.startswith("stsa."):
            wrong.append(f"{where(doc, number)}: `python -m {module}`: STSA runs as "
                         f"`python -m stsa`")
        else:
            name = "bench/__main__.py" if module == "bench" else module.replace(".", "/") + ".py"
            if not (ROOT / name).exists():
                wrong.append(f"{where(doc, number)}: `python -m {module}` names no {name}")
    return wrong


def missing_rooms(doc: Path) -> list[str]:
    source = (ROOT / "bench" / "load.py").read_text()
    rooms = set(re.findall(r'^\s+"(\w+)": Room\(', source, re.M)) | {"cluster"}
    return [f"{where(doc, number)}: `make load ROOM={room}` is not a room of bench/load.py"
            for number, span in code(doc) for room in ROOM.findall(span) if room not in rooms]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_relative_link_reaches_a_file_and_its_heading(doc):
    broken = broken_links(doc)
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_make_target_named_exists(doc):
    assert {"run", "test", "check"} <= makefile_targets()
    missing = missing_targets(doc)
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_python_command_named_exists(doc):
    wrong = wrong_commands(doc, stsa_parser())
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_room_named_exists(doc):
    missing = missing_rooms(doc)
    assert not missing, "\n".join(missing)


def test_every_variable_the_app_reads_is_in_the_configuration_table():
    running = (ROOT / "docs" / "running.md").read_text()
    table = re.findall(r"^\| `(STSA_\w+)`(?:, `(STSA_\w+)`)?", running, re.M)
    documented = {name for row in table for name in row if name}
    read = {name for path in [ROOT / "app.py", *(ROOT / "stsa").rglob("*.py")]
            for name in re.findall(r"\bSTSA_[A-Z_]+\b", path.read_text())}
    assert read, "the app reads no STSA_ variable?"
    missing = sorted(read - documented)
    assert not missing, f"docs/running.md, Configuration: no row for {missing}"


def test_the_checks_fail_on_what_they_guard(tmp_path):
    """Each check finds what it guards against, and names the file and line."""
    (tmp_path / "there.md").write_text("# There\n")
    bad = tmp_path / "bad.md"
    bad.write_text("# Title\n\n[gone](nowhere.md) [ok](there.md#there) [x](there.md#nothing)\n"
                   "[self](#title) [y](#nothing) `[no](link.md)` [two\nlines](gone.md)\n"
                   "```sh\nmake nothing   # make run is fine\npython -m stsa pins --wrong\n"
                   "python -m bench.nothing\nmake load ROOM=nothing\n# not a heading\n```\n"
                   "`python -m stsa pins --reset` and `stsa tls --force`\n")
    assert anchors(bad) == {"title"}
    assert broken_links(bad) == ["bad.md:3: nowhere.md names no file",
                                 "bad.md:3: there.md#nothing names no heading of there.md",
                                 "bad.md:4: #nothing names no heading of bad.md",
                                 "bad.md:4: gone.md names no file"]
    assert missing_targets(bad) == ["bad.md:7: `make nothing` is not a target of the Makefile"]
    assert wrong_commands(bad, stsa_parser()) == [
        "bad.md:8: `python -m stsa pins --wrong` is not a command of stsa/__main__.py",
        "bad.md:9: `python -m bench.nothing` names no bench/nothing.py"]
    assert missing_rooms(bad) == ["bad.md:10: `make load ROOM=nothing` is not a room of "
                                  "bench/load.py"]
    assert slug("On the venue's network") == "on-the-venues-network"
    assert slug("Performance (`make bench`)") == "performance-make-bench"
