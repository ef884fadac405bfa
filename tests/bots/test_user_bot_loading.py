"""A user's bot given as ``module:Class`` or as a file (``path/to/mybot.py:Class``) loads in its
own process, and when it cannot, the one-line message says what is wrong, where in the user's
code, and what to do (bots/isolated.py, ``user_bot_class``)."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from sequence.bots import BotSpecError, make_bot
from sequence.bots.isolated import check_bot, is_file_spec, is_user_bot
from sequence.cli.main import main
from sequence.i18n.errors import translate_error

FILES = {
    "plainbot.py": """
        from sequence.bots import Bot

        import plainhelper  # a sibling of this file


        class Plain(Bot):
            name = "plain"

            def choose(self, view):
                return plainhelper.first(view)
    """,
    "plainhelper.py": """
        def first(view):
            return view.legal_moves[0]
    """,
    "syntax.py": """
        from sequence.bots import Bot
        class Broken(Bot)
            pass
    """,
    "nodep.py": """
        from sequence.bots import Bot
        import numpy_not_here


        class NoDep(Bot):
            pass
    """,
    "ctor.py": """
        from sequence.bots import Bot


        class Ctor(Bot):
            def __init__(self, seed=0):
                super().__init__(seed)
                raise RuntimeError("model file not found")
    """,
    "relative.py": """
        from .helpers import x
    """,
    "script.py": """
        import sys

        sys.exit(2)
    """,
    "notabot.py": """
        class NotABot:
            def choose(self, view):
                return view.legal_moves[0]
    """,
}


@pytest.fixture()
def bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder of bot files, the current folder of the command (not on sys.path)."""
    for name, text in FILES.items():
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip())
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # make_bot in this process may add to it
    yield tmp_path
    for name in FILES:  # what make_bot loaded in this process
        sys.modules.pop(name.removesuffix(".py"), None)


def refused(spec: str) -> ValueError:
    with pytest.raises(ValueError) as caught:
        check_bot(spec)
    assert "\n" not in str(caught.value)
    return caught.value


def refusal(spec: str) -> str:
    return str(refused(spec))


def test_a_file_path_is_a_users_bot() -> None:
    assert is_user_bot("./mybot.py:MyBot") and is_user_bot(r"C:\bots\mybot.py:MyBot@depth=2")
    assert is_file_spec("./mybot.py") and is_file_spec("bots/mybot") and is_file_spec("mybot.py")
    assert not is_file_spec("mypackage.mybot")


def test_a_bot_in_a_plain_file_plays_a_tournament(
    bots: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    specs = ["./plainbot.py:Plain", "plainbot.py:Plain", f"{bots / 'plainbot.py'}:Plain"]
    for spec in specs:
        assert main(["tournament", "--bot", spec, "--bot", "random", "--game", "kids", "--games",
                     "2", "--workers", "1", "--json", "-", "--quiet"]) == 0  # fmt: skip
        results = json.loads(capsys.readouterr().out)
        assert results["forfeits"] == [] and results["games"] == 2
        assert spec in {row["bot"] for row in results["ratings"]}  # shown by its spec
    assert "plainbot" not in sys.modules  # loaded in the bot's own process only


def test_a_relative_path_starts_from_the_current_folder(
    bots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(bots / "elsewhere")
    check_bot("../plainbot.py:Plain")
    message = refusal("./plainbot.py:Plain")
    assert "no file ./plainbot.py" in message and str(bots / "elsewhere") in message


def test_make_bot_loads_a_file_in_this_process_too(bots: Path) -> None:
    bot = make_bot("plainbot.py:Plain", seed=4)
    assert type(bot).__name__ == "Plain" and bot.label == "plainbot.py:Plain" and bot.seed == 4
    assert str(bots) == sys.path[0]  # its folder, for its siblings


def test_a_missing_file_says_so(bots: Path) -> None:
    message = refusal("./x.py:Plain")
    assert message.startswith("cannot load bot './x.py:Plain': no file ./x.py: check the path")
    assert "did you mean ./plainbot.py" in refusal("./plainbot:Plain")
    assert "is a folder" in refusal("elsewhere/:Plain")


def test_a_file_without_a_class_says_how_to_name_one(bots: Path) -> None:
    with pytest.raises(ValueError, match=r"names a file but no class: write plainbot.py:"):
        check_bot("plainbot.py")
    message = refusal("plainbot.py:Nobody")
    assert "has no class 'Nobody'" in message and "Bot classes defined there: Plain" in message
    assert "define it as class NotABot(Bot)" in refusal("notabot.py:NotABot")


def test_a_module_not_found_says_where_modules_are_looked_for(
    bots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_bot("plainbot:Plain")  # the current folder is looked in
    monkeypatch.chdir(bots / "elsewhere")
    error = refused("plainbot:Plain")
    message = str(error)
    assert "No module named 'plainbot'" in message
    assert "importable from the current folder" in message and "PYTHONPATH" in message
    assert "path/to/plainbot.py:Plain" in message
    # Refused in the bot's own process: its code crosses, so the message is translated whole.
    assert isinstance(error, BotSpecError) and error.code == "bot_not_loaded"
    german = translate_error(error, "de")
    assert german.startswith("der Bot „plainbot:Plain“ lässt sich nicht laden: No module named")


def test_a_syntax_error_names_the_users_file_and_line(bots: Path) -> None:
    for spec in ("syntax:Broken", "syntax.py:Broken"):
        message = refusal(spec)
        assert "failed at syntax.py:2: SyntaxError: expected ':'" in message, message
        assert "__init__.py" not in message and "importlib" not in message


def test_a_missing_dependency_is_not_taken_for_the_bot_module(bots: Path) -> None:
    for spec, kind in (("nodep:NoDep", "importing the bot's module nodep"),
                       ("./nodep.py:NoDep", "loading the bot's file ./nodep.py")):  # fmt: skip
        message = refusal(spec)
        assert f"{kind} failed at nodep.py:2: ModuleNotFoundError:" in message, message
        assert "No module named 'numpy_not_here'" in message
        assert "install 'numpy_not_here'" in message


def test_other_failures_while_loading_say_what_to_do(bots: Path) -> None:
    message = refusal("relative.py:X")
    assert "failed at relative.py:1: ImportError" in message
    assert "package.module:Class" in message
    message = refusal("script.py:X")
    assert "failed at script.py:3: SystemExit: 2" in message and "__main__" in message


def test_a_constructor_error_names_the_users_line(bots: Path) -> None:
    message = refusal("ctor.py:Ctor")
    assert message == (
        "cannot start bot 'ctor.py:Ctor': RuntimeError: model file not found (at ctor.py:7)"
    )


DOCS = Path(__file__).parents[2] / "docs" / "bots.md"


def test_the_docs_example_bot_plays_and_beats_random(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = DOCS.read_text()
    start = text.index("```python\n# linebot.py\n") + len("```python\n")
    (tmp_path / "linebot.py").write_text(text[start : text.index("```", start)])
    monkeypatch.chdir(tmp_path)
    assert main(["tournament", "--bot", "linebot.py:LineBuilder", "--bot", "random", "--games",
                 "4", "--workers", "1", "--seed", "1", "--json", "-", "--quiet"]) == 0  # fmt: skip
    results = json.loads(capsys.readouterr().out)
    assert results["forfeits"] == []
    assert results["pairings"][0]["a_wins"] >= 3


def test_the_docs_view_reference_names_what_a_view_has() -> None:
    from sequence.engine import State, make_config

    text = DOCS.read_text()
    table = text[text.index("### What a bot sees") : text.index("### An example")]
    view = State.new(make_config("classic", 2), seed=1).view(0)
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    names = [n.strip(" `").partition("(")[0] for row in rows for n in row.split(",")]
    assert len(names) > 20
    for name in names:
        assert hasattr(view, name), name


def test_a_missing_extra_names_its_pypi_package_and_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ismcts needs OpenSpiel, whose module is pyspiel but whose PyPI package is open-spiel: the
    # advice names the package and this project's extra, installed from a checkout.
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # "import pyspiel" fails as if missing
    monkeypatch.delitem(sys.modules, "sequence.env.openspiel", raising=False)
    with pytest.raises(BotSpecError) as caught:
        make_bot("ismcts")
    message = str(caught.value)
    assert "install the package 'open-spiel', in this project's 'openspiel' extra" in message
    assert "pip install -e '.[openspiel]'" in message
    assert "install 'pyspiel'" not in message
    # The bot is named as its user wrote it, not as the module path it is routed to.
    assert message.startswith("cannot load bot 'ismcts':") and "ISMCTSBot" not in message


@pytest.mark.parametrize("spec", ["comp90054:nofile.py", "policy:nothere.zip"])
def test_a_missing_adapter_file_is_said_plainly(
    spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = spec.partition(":")[2]
    with pytest.raises(BotSpecError) as caught:
        make_bot(spec)
    assert caught.value.code == "bot_file_missing"
    assert str(caught.value) == (
        f"bot '{spec}': there is no file {path} (a relative path starts from {tmp_path})"
    )


def test_an_unknown_argument_lists_the_ones_the_bot_takes() -> None:
    with pytest.raises(BotSpecError) as caught:
        make_bot("hard@foo=1")
    message = str(caught.value)
    assert message.startswith("bad arguments for bot 'hard@foo=1': ")
    assert "unexpected keyword argument 'foo'; it takes (defaults shown) time=" in message
    assert "seed" not in message.partition("it takes")[2]
    with pytest.raises(BotSpecError, match=r"'x'; it takes no arguments$"):
        make_bot("random@x=1")
    # A course agent's file is its spec's, not an argument: only agent is listed.
    example = Path(__file__).parents[2] / "examples" / "comp90054" / "myTeam.py"
    with pytest.raises(BotSpecError, match=r"it takes \(defaults shown\) agent='myAgent'$"):
        make_bot(f"comp90054:{example}@foo=2")
