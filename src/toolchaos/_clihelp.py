"""How the CLI's commands show their help: 80 columns, examples that can be copied.

:class:`Typer` is the typer app class :mod:`toolchaos.cli` builds its commands with. Its
commands lay out ``--help`` with click's formatter, never breaking a line inside a
hyphenated word, list every command's first sentence whole, and show the paragraph that
starts ``Example:`` as commands broken between options with a shell continuation
(``tests/cli/test_help_width.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup
from typer.models import CommandFunctionType

HELP_WIDTH = 80
"""The widest ``--help`` line (a wider terminal gets the same layout)."""
_UNBROKEN_HYPHEN = "\u2011"  # stands in for "-" while text is wrapped (never a break there)
# click's help formatter, whether typer bundles its own click or uses the package
_ClickFormatter: Any = typer.Context.formatter_class


class _HelpFormatter(_ClickFormatter):  # type: ignore[misc]
    """click's help layout, never breaking a line inside a hyphenated word.

    ``no-tool`` or ``--executor dask-local`` split over two lines cannot be copied.
    """

    def __init__(self, indent_increment: int = 2, width: int | None = None, **_: Any) -> None:
        super().__init__(indent_increment, width, max_width=HELP_WIDTH)

    def write_text(self, text: str) -> None:
        """Write a paragraph, wrapped between words only."""
        super().write_text(text.replace("-", _UNBROKEN_HYPHEN))
        self._restore()

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        """Write a definition list (options, commands), its text wrapped between words."""
        kept = [(term, text.replace("-", _UNBROKEN_HYPHEN)) for term, text in rows]
        super().write_dl(kept, col_max, col_spacing)
        self._restore()

    def _restore(self) -> None:
        self.buffer[:] = [part.replace(_UNBROKEN_HYPHEN, "-") for part in self.buffer]


class _Context(typer.Context):
    """A context whose help is laid out by :class:`_HelpFormatter`."""

    formatter_class = _HelpFormatter


def example_lines(commands: list[str], width: int) -> list[str]:
    """Each example command on lines of at most ``width``, continued with a backslash.

    Lines break only between shell words, so every line can be copied and pasted.
    """
    import shlex

    lines: list[str] = []
    for command in commands:
        words = [shlex.quote(word) for word in shlex.split(command)]
        # an option stays on the line of its value
        units: list[str] = []
        for word in words:
            last = units[-1] if units else ""
            if last.startswith("-") and " " not in last and not word.startswith("-"):
                units[-1] += " " + word
                continue
            units.append(word)
        line = "  " + units[0]
        for unit in units[1:]:
            if len(line) + 1 + len(unit) + 2 > width:
                lines.append(line + " \\")
                line = "      " + unit
            else:
                line += " " + unit
        lines.append(line)
    return lines


def _help_paragraphs(text: str, width: int) -> str:
    """A command's help for click: prose as it is; an example laid out to be copied.

    A paragraph starting ``Example:`` (or ``Examples (...):``) holds commands, each starting
    with ``toolchaos`` and running on over docstring lines as needed; they are shown one
    per line, broken between words with a shell continuation, and never rewrapped.
    """
    kept = []
    for paragraph in text.split("\n\n"):
        head, _, rest = paragraph.partition(":")
        if not head.strip().startswith("Example") or "toolchaos" not in rest:
            kept.append(paragraph)
            continue
        commands: list[str] = []
        for line in rest.strip().splitlines():
            if line.strip().startswith("toolchaos ") or not commands:
                commands.append(line.strip())
            else:
                commands[-1] += " " + line.strip()
        kept.append(f"\b\n{head.strip()}:\n" + "\n".join(example_lines(commands, width)))
    return "\n\n".join(kept)


class _HelpFlag:
    """What our commands and groups share in their help.

    ``--help`` shown as every other flag of ours (no value placeholder), lines that fit 80
    columns, and an example that can be copied.
    """

    help: str | None

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.metavar = ""
        return option

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        """The description, its example laid out line by line."""
        import inspect

        text = inspect.cleandoc(self.help or "").partition("\f")[0]
        if not text:
            return
        width = formatter.width - formatter.current_indent - formatter.indent_increment
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(_help_paragraphs(text, width))

    def get_short_help_str(self, limit: int = 45) -> str:
        """The first sentence of the help, whole (the command list wraps it)."""
        import inspect

        first = inspect.cleandoc(self.help or "").split("\n\n", 1)[0]
        return " ".join(first.split())


class _Command(_HelpFlag, TyperCommand):
    """A command of ours."""

    context_class = _Context


class _Group(_HelpFlag, TyperGroup):
    """A group of commands of ours."""

    context_class = _Context


class Typer(typer.Typer):
    """A Typer whose commands and groups lay out their help as this module says."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(cls=_Group, rich_markup_mode=None, **settings)

    def command(
        self, name: str | None = None, **settings: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        """Register a command (of class ``_Command`` unless told otherwise)."""
        return super().command(name, cls=settings.pop("cls", _Command), **settings)
