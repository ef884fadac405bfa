"""Loading a user's bot class from ``module:Class`` or ``path/to/mybot.py:Class``.

It runs in the bot's own process (:mod:`sequence.bots.isolated` starts it), never in the one
holding the game; every failure is a :class:`~sequence.bots.errors.BotSpecError` that says what
is wrong, where in the author's code, and what to do.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
import traceback
from types import ModuleType
from typing import Any

from .base import Bot
from .errors import BotSpecError, failure


class _LoadError(Exception):
    """Why a bot's module could not be loaded, in words for its author."""


def user_bot_class(name: str) -> Any:
    """What ``module:Class`` names: the module imported by name, or a file loaded from its path
    (``path/to/mybot.py:MyBot``, see :func:`is_file_spec`). :func:`~sequence.bots.make_bot`
    calls it in the bot's own process. Raises ValueError saying what is wrong and what to do.

    >>> user_bot_class("sequence.bots.base:RandomBot").__name__
    'RandomBot'
    """
    module_name, _, class_name = name.rpartition(":")  # the last ':' (a Windows path has C:)
    try:
        if is_file_spec(module_name):
            module = _load_file(module_name)
        else:
            module = _import_module(module_name, class_name)
    except _LoadError as exc:
        raise BotSpecError("bot_not_loaded", text=name, value=str(exc)) from None
    except (Exception, SystemExit) as exc:  # raised by the module's own code as it ran
        failed = _import_failure(module_name, exc)
        raise BotSpecError("bot_not_loaded", text=name, value=failed) from None
    try:
        return getattr(module, class_name)
    except AttributeError:
        found = ", ".join(_bot_classes(module)) or "none"
        value = (
            f"{module_name} has no class {class_name!r}; after ':' write the name of your Bot"
            f" class (Bot classes defined there: {found})"
        )
        raise BotSpecError("bot_not_loaded", text=name, value=value) from None


def is_file_spec(module: str) -> bool:
    """Whether a spec's module part is a file's path (it ends in ``.py`` or holds a path
    separator) rather than a module's name.

    >>> is_file_spec("bots/mine.py"), is_file_spec("mine.py"), is_file_spec("bots.mine")
    (True, True, False)
    """
    return module.endswith(".py") or any(sep and sep in module for sep in (os.sep, os.altsep))


def _import_module(module: str, class_name: str) -> ModuleType:
    """Import ``module``, looking in the current folder too: ``sequence`` is an installed
    command, which (unlike ``python -m``) does not, and a student's package is usually there."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        if exc.name == module.partition(".")[0] and here not in sys.path:
            sys.path.append(here)
            return _import_module(module, class_name)
        if exc.name is None or not (module + ".").startswith(exc.name + "."):
            raise  # a module the bot's module imports is missing: _import_failure says where
        file = f"path/to/{module.replace('.', '/')}.py:{class_name}"
        raise _LoadError(
            f"{exc} (a bot's module must be importable from the current folder, {here}, or"
            f" PYTHONPATH; or give its file: {file})"
        ) from None


def _load_file(text: str) -> ModuleType:
    """The module in the file ``text``, loaded as ``python path/to/mybot.py`` would run it: its
    folder comes first on ``sys.path``, so that it imports its siblings, and code under
    ``if __name__ == "__main__":`` does not run."""
    path = os.path.abspath(text)  # a bot's process starts in the folder of the command
    if not os.path.isfile(path):
        raise _LoadError(_no_file(text, path))
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    stem = os.path.splitext(os.path.basename(path))[0]
    # Its file's name, as Python names a module, unless that would replace one already loaded.
    name = stem if stem.isidentifier() and stem not in sys.modules else "sequence_user_bot"
    loader = importlib.machinery.SourceFileLoader(name, path)  # also a file not named .py
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None  # a loader was given
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickle look a class's module up by name
    try:
        loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _no_file(text: str, path: str) -> str:
    if os.path.isdir(path):
        return f"{text} is a folder: give the path of the bot's .py file in it"
    relative = "" if os.path.isabs(text) else f" (a relative one starts from {os.getcwd()})"
    meant = f"; did you mean {text}.py?" if os.path.isfile(path + ".py") else ""
    return f"no file {text}: check the path{relative}{meant}"


def _import_failure(module: str, exc: BaseException) -> str:
    """What the bot's module raised while it was imported, where in its author's code, and what
    to do about it."""
    if isinstance(exc, SyntaxError) and exc.filename and not exc.filename.startswith("<"):
        place: str | None = f"{_shown(exc.filename)}:{exc.lineno}"
        what = f"{type(exc).__name__}: {exc.msg}"  # str(exc) repeats the file and line
    else:
        place, what = _user_line(exc), failure(exc)
    at = f" at {place}" if place else ""
    kind = "loading the bot's file" if is_file_spec(module) else "importing the bot's module"
    return f"{kind} {module} failed{at}: {what}{_advice(exc)}"


EXTRAS: dict[str, tuple[str, str]] = {
    "pyspiel": ("open-spiel", "openspiel"),
    "gymnasium": ("gymnasium", "gym"),
    "numpy": ("numpy", "gym"),
    "pettingzoo": ("pettingzoo", "pettingzoo"),
    "stable_baselines3": ("stable-baselines3", "rl"),
    "sb3_contrib": ("sb3-contrib", "rl"),
}
"""Modules this package's own bots import from an extra (pyproject.toml's
optional-dependencies): the PyPI package that brings each, and the extra that has it."""


def _advice(exc: BaseException) -> str:
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        top = exc.name.partition(".")[0]
        if top in EXTRAS:
            package, extra = EXTRAS[top]
            return (
                f" (install the package {package!r}, in this project's {extra!r} extra: from"
                f" a checkout, .venv/bin/pip install -e '.[{extra}]' (make setup has it);"
                f" else {sys.prefix}/bin/pip install {package})"
            )
        return (
            f" (install {top!r} in the Python that runs sequence,"
            f" {sys.prefix}, or put it on PYTHONPATH)"
        )
    if isinstance(exc, ImportError) and "relative import" in str(exc):
        return (
            " (a file given by its path is loaded on its own, outside its package: give the bot"
            " as package.module:Class instead)"
        )
    if isinstance(exc, SystemExit):
        return (
            " (the module exits when imported: put a script's own code under"
            ' if __name__ == "__main__":)'
        )
    return ""


def _bot_classes(module: ModuleType) -> list[str]:
    """The names of the Bot classes defined in ``module`` (for a spec that names none of them)."""
    return sorted(
        name
        for name, value in vars(module).items()
        if isinstance(value, type)
        and issubclass(value, Bot)
        and value.__module__ == module.__name__
    )


def _user_line(exc: BaseException) -> str | None:
    """``file:line`` of the deepest frame of ``exc``'s traceback in its author's code: not in
    Python's library, the installed packages or this package (importlib's frames among them);
    failing that, not in Python's library or this package (a bot installed as a package)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith("<")]
    for skipped in (_LIBRARY + _INSTALLED, _LIBRARY):
        own = [f for f in frames if not _under(f.filename, skipped)]
        if own:
            return f"{_shown(own[-1].filename)}:{own[-1].lineno}"
    return None


def _folders(*names: str) -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    found = {os.path.realpath(paths[n]) for n in names if n in paths}
    return tuple(os.path.join(folder, "") for folder in sorted(found))


_OURS = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "")
"""The sequence package: its frames are never the bot's author's."""
_LIBRARY = (*_folders("stdlib"), _OURS)
_INSTALLED = _folders("platstdlib", "purelib", "platlib")


def _under(path: str, folders: tuple[str, ...]) -> bool:
    return os.path.realpath(path).startswith(folders)


def _shown(path: str) -> str:
    """A file as its author knows it: relative to the current folder when it is inside it."""
    full = os.path.abspath(path)
    try:
        relative = os.path.relpath(full)
    except ValueError:  # another drive (Windows)
        return full
    return full if relative.startswith(os.pardir) else relative


def where(exc: BaseException) -> str:
    """Where in the bot's own code ``exc`` was raised: `` (at mybot.py:12)``, or nothing."""
    place = _user_line(exc)
    return f" (at {place})" if place else ""
