"""Reading one file: bytes to text, text to syntax tree, positions back to the user.

Every failure becomes a :class:`~preflight.diagnostics.FileError` with a clear
message; nothing here raises on bad input.
"""

from __future__ import annotations

import ast
import codecs
import errno
import io
import os
import re
import stat
import warnings
from pathlib import Path
from typing import Optional, Union

from preflight._hash import blake2b
from preflight._record import dataclass, field
from preflight.depth_guard import MAX_AST_DEPTH, deepest_expression
from preflight.diagnostics import FileError

# The most preflight reads of any one input (script, config, notebook, cluster file, job,
# standard input, cache entry): a larger one is refused with a message, never read whole.
MAX_FILE_BYTES = 16 * 1024 * 1024
_LINE_BREAK = re.compile(r"\r\n|\r|\n")

PYTHON_SUFFIXES = {".py"}
NOTEBOOK_SUFFIXES = {".ipynb"}
JSON_SUFFIXES = {".json"}
YAML_SUFFIXES = {".yaml", ".yml"}
TOML_SUFFIXES = {".toml"}
SHELL_SUFFIXES = {".sh", ".sbatch", ".slurm"}


_KIND_BY_SUFFIX = {
    **{s: "python" for s in PYTHON_SUFFIXES},
    **{s: "notebook" for s in NOTEBOOK_SUFFIXES},
    **{s: "json" for s in JSON_SUFFIXES},
    **{s: "yaml" for s in YAML_SUFFIXES},
    **{s: "toml" for s in TOML_SUFFIXES},
    **{s: "shell" for s in SHELL_SUFFIXES},
}


def kind_of(path: Path) -> Optional[str]:
    return kind_of_name(path.name)


def kind_of_name(name: str) -> Optional[str]:
    """The kind of a file called ``name`` (its last component), from the suffix as
    ``PurePath.suffix`` reads it: the last dot not at the start nor at the end."""
    dot = name.rfind(".")
    if not 0 < dot < len(name) - 1:
        return None
    return _KIND_BY_SUFFIX.get(name[dot:].lower())


@dataclass
class SourceText:
    """A file's decoded text and what is needed to write it back byte-exactly."""

    path: Path
    display: str
    kind: str
    raw: bytes
    text: str
    encoding: str = "utf-8"
    bom: bool = False

    @property
    def digest(self) -> str:
        return blake2b(self.raw, digest_size=16).hexdigest()


@dataclass
class LineIndex:
    """Maps ``ast`` positions (UTF-8 byte columns) to character columns."""

    lines: list[str]

    @classmethod
    def of(cls, text: str) -> LineIndex:
        # Only \n, \r\n and \r end a line for the parser; str.splitlines() also
        # breaks at form feeds and other separators and would shift line numbers.
        lines = text.split("\n") if "\r" not in text else _LINE_BREAK.split(text)
        if lines and lines[-1] == "":
            lines.pop()
        return cls(lines)

    def line_text(self, line: int) -> str:
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1]
        return ""

    def char_col(self, line: int, byte_col: int) -> int:
        """0-based character column of a 0-based UTF-8 byte offset on ``line``."""
        text = self.line_text(line)
        if text.isascii():
            return byte_col
        return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


@dataclass
class ParsedPython:
    source: SourceText
    tree: ast.Module
    index: LineIndex
    # notebooks: virtual line -> (cell number, line in cell); None for .py files
    cell_map: Optional[list[tuple[int, int]]] = None
    # the analysed text (a notebook's code cells joined; None: the source's text)
    text: Optional[str] = field(default=None, repr=False)
    comments_found: Optional[dict[int, str]] = field(default=None, repr=False)
    # notebooks: cells that could not be parsed (analysed as empty; the other cells are analysed)
    cell_errors: list[FileError] = field(default_factory=list)

    @property
    def comment_lines(self) -> dict[int, str]:
        """1-based lines of the analysed text that hold suppression comments, found on first
        use: most files are never asked (no finding, no skip-file directive)."""
        if self.comments_found is None:
            self.comments_found = _comments(self.text if self.text is not None else self.source.text)
        return self.comments_found

    def may_suppress(self) -> bool:
        """Whether the text holds a ``noqa`` naming a PF code or a ``preflight:`` directive
        anywhere (a comment or not): the only files whose comments are worth tokenizing for
        invalid or unused suppression codes when no finding asks for them (another tool's
        ``# noqa: F401`` is not ours to judge)."""
        text = self.text if self.text is not None else self.source.text
        if "#" not in text:
            return False
        if "\u0130" in text or "\u0131" in text:  # the only non-ASCII letters it folds (to 'i')
            return _OWN_DIRECTIVE.search(text) is not None
        # the case-blind pattern is slow over a whole file; matching its lowercase form in the
        # lowercased text finds the same (lower() keeps each other character one character, and
        # maps no other non-ASCII character to a letter of the pattern)
        low = text.lower()
        return ("noqa" in low and _OWN_NOQA.search(low) is not None) or \
            ("preflight" in low and _OWN_PREFLIGHT.search(low) is not None)

    def may_skip_file(self) -> bool:
        """Whether the text holds a ``# preflight: skip-file`` anywhere (a comment or not)."""
        return _SKIP_FILE_TEXT.search(self.text if self.text is not None else self.source.text) is not None

    def locate(self, line: int) -> tuple[Optional[int], int]:
        """(cell, line) as the user sees it for a line of the analysed source."""
        if self.cell_map is None:
            return None, line
        if 1 <= line <= len(self.cell_map):
            return self.cell_map[line - 1]
        return None, line


class InputRefused(OSError):
    """An input preflight will not read: not a regular file, or over the size limit.

    An ``OSError``, so every caller that already handles an unreadable file handles it;
    ``str()`` is the whole reason, ready for the user.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(errno.EINVAL, reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


_FILE_TYPES = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
               (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _too_large(size: int, limit: int) -> str:
    if size >= 1048576:
        return f"file is {size / 1048576:.1f} MiB, over the {limit / 1048576:g} MiB limit; skipped"
    return f"file is over the {limit} byte limit; skipped"


def read_bytes_limited(path: Union[str, Path], limit: Optional[int] = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or :class:`InputRefused`.

    Opened without blocking (a FIFO with no writer would block ``open`` forever), then
    checked on the open descriptor, so a path swapped between the check and the read
    cannot slip past: FIFOs, devices (``/dev/zero``) and sockets are refused, a directory
    is ``EISDIR``, and at most ``limit + 1`` bytes are ever read whatever the size claims.
    ``limit`` defaults to :data:`MAX_FILE_BYTES`.
    """
    if limit is None:
        limit = MAX_FILE_BYTES
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
        if not stat.S_ISREG(st.st_mode):
            what = next((name for test, name in _FILE_TYPES if test(st.st_mode)), "not a regular file")
            raise InputRefused(f"not a regular file ({what}); skipped")
        if st.st_size > limit:
            raise InputRefused(_too_large(st.st_size, limit))
        chunks: list[bytes] = []
        total = 0
        # the first read asks for the size the file claims plus one byte (so that a file read
        # whole is seen to end without a second, empty read); later ones for what is left of
        # the limit, in pieces: a buffer of the whole limit would be allocated for every file
        want = st.st_size + 1
        while total <= limit:
            chunk = os.read(fd, min(limit + 1 - total, want))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if len(chunk) < want and total == st.st_size:
                break  # short read at the size fstat gave: the end of the file
            want = 1 << 16
        if total > limit:  # the file grew while read (or its size lied)
            raise InputRefused(_too_large(total, limit))
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text_limited(path: Union[str, Path], limit: Optional[int] = None, *,
                      errors: str = "strict") -> str:
    """:func:`read_bytes_limited` decoded as UTF-8 (``UnicodeDecodeError`` as ``decode``)."""
    return read_bytes_limited(path, limit).decode("utf-8", errors)


def read_stream_limited(stream, limit: Optional[int] = None) -> bytes:
    """At most ``limit`` bytes of a binary stream (standard input), or :class:`InputRefused`."""
    if limit is None:
        limit = MAX_FILE_BYTES
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputRefused(_too_large(len(data), limit).replace("file is", "input is"))
    return data


def read_source(path: Path, display: str, kind: str) -> Union[SourceText, FileError]:
    """Read and decode one file, or say clearly why it cannot be read."""
    try:
        raw = read_bytes_limited(path)
    except OSError as exc:
        return FileError(display, _os_reason(exc))
    if b"\0" in raw[:8192]:
        return FileError(display, "binary file (contains NUL bytes); skipped")
    encoding = "utf-8"
    if kind == "python" and b"coding" in b"\n".join(raw.split(b"\n", 2)[:2]):
        # only a PEP 263 cookie in the first two lines can name another encoding
        import tokenize

        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
        except SyntaxError as exc:
            if b"coding" in b"\n".join(raw.splitlines()[:2]):
                return FileError(display, f"bad encoding declaration: {exc}", line=1)
            encoding = "utf-8"  # undecodable first lines: the decode below says where
    bom = raw.startswith(codecs.BOM_UTF8)
    body = raw[len(codecs.BOM_UTF8):] if bom else raw
    if encoding == "utf-8-sig":
        encoding = "utf-8"
    try:
        text = body.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        return FileError(display, *_decode_reason(body, encoding, exc))
    return SourceText(path=path, display=display, kind=kind, raw=raw, text=text,
                      encoding=encoding, bom=bom)


def _os_reason(exc: OSError) -> str:
    if isinstance(exc, InputRefused):
        return exc.reason
    if exc.errno == errno.ELOOP:
        return "symbolic link loop; skipped"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied; skipped"
    if exc.errno == errno.ENOENT:
        return "no such file or directory"
    if exc.errno == errno.EISDIR:
        return "is a directory"
    return f"cannot read: {exc.strerror or exc}"


def _decode_reason(body: bytes, encoding: str, exc: Exception) -> tuple[str, Optional[int]]:
    if isinstance(exc, UnicodeDecodeError):
        line = body[: exc.start].count(b"\n") + 1
        bad = body[exc.start : exc.start + 1].hex()
        return (f"not valid {encoding} (byte 0x{bad} at line {line}); "
                "add a coding declaration or re-save as UTF-8", line)
    return (f"unknown encoding {encoding!r}", 1)


def parse_python(source: SourceText) -> Union[ParsedPython, FileError]:
    """Parse a ``.py`` file (or a notebook's code cells) with the stdlib parser."""
    cell_errors: list[FileError] = []
    if source.kind == "notebook":
        built = notebook_to_python(source, cell_errors)
        if isinstance(built, FileError):
            return built
        text, cell_map = built
    else:
        text, cell_map = source.text, None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for odd escapes is not ours
            tree = ast.parse(text, filename=source.display, type_comments=False)
    except SyntaxError as exc:
        return _syntax_error(source, exc, text, cell_map)
    except (ValueError, RecursionError, MemoryError) as exc:
        # CPython's parser reports a too-deep expression as RecursionError or, when its own
        # stack overflows, as a bare MemoryError
        deep = isinstance(exc, (RecursionError, MemoryError)) or not str(exc)
        reason = "expressions nested too deeply to parse" if deep else str(exc)
        return FileError(source.display, f"cannot parse: {reason}")
    index = LineIndex.of(text)
    depth = deepest_expression(tree, index.lines)
    if depth > MAX_AST_DEPTH:
        # Python 3.9/3.10 parse what 3.11+ refuse (a 30,000-term sum); the analyses recurse
        # over expressions, so such a tree would cost minutes. The same answer everywhere.
        return FileError(source.display, f"cannot parse: expressions nested too deeply to parse "
                                         f"(depth over {MAX_AST_DEPTH})")
    return ParsedPython(source=source, tree=tree, index=index, cell_map=cell_map,
                        text=None if text is source.text else text, cell_errors=cell_errors)


def _syntax_error(source: SourceText, exc: SyntaxError, text: str,
                  cell_map: Optional[list[tuple[int, int]]]) -> FileError:
    msg = exc.msg or "invalid syntax"
    line = exc.lineno or 1
    column = exc.offset
    if _looks_like_python2(msg, text):
        msg = f"Python 2 syntax is not supported ({msg})"
    else:
        msg = f"syntax error: {msg}"
    where = source.display
    if cell_map is not None and 1 <= line <= len(cell_map):
        cell, line = cell_map[line - 1]
        where = f"{source.display}:cell {cell}"
    return FileError(where, msg, line=line, column=column)


def _looks_like_python2(msg: str, text: str) -> bool:
    if "Missing parentheses in call to 'print'" in msg or "Missing parentheses in call to 'exec'" in msg:
        return True
    import re

    return bool(re.search(r"^\s*(print\s+[\"'\w]|exec\s+[\"'\w]|except\s+\w+\s*,\s*\w+\s*:)", text, re.M)) and (
        "invalid syntax" in msg or "multiple exception types" in msg
    )


_DIRECTIVE = re.compile(r"noqa|preflight\s*:", re.I)
_OWN_DIRECTIVE = re.compile(r"noqa\s*:[^\n]*?PF|preflight\s*:", re.I)
_OWN_NOQA = re.compile(r"noqa\s*:[^\n]*?pf")  # _OWN_DIRECTIVE's two halves, over lowercased text
_OWN_PREFLIGHT = re.compile(r"preflight\s*:")
_SKIP_FILE_TEXT = re.compile(r"#\s*preflight:\s*skip-file\b", re.I)  # engine._SKIP_FILE_RE


def _comments(text: str) -> dict[int, str]:
    """Comments that may hold a suppression (``noqa``, ``preflight:``), by line.

    Found with the tokenizer, so text inside strings never counts. Tokenizing is
    most of the cost of reading a file, so files without such a word skip it.
    """
    if "#" not in text or not _DIRECTIVE.search(text):
        return {}
    import tokenize

    out: dict[int, str] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT and _DIRECTIVE.search(tok.string):
                out[tok.start[0]] = tok.string
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return out


def notebook_to_python(source: SourceText, cell_errors: Optional[list[FileError]] = None,
                       ) -> Union[tuple[str, list[tuple[int, int]]], FileError]:
    """Concatenate a notebook's code cells into one program.

    Returns the text and, for every line, the (cell number, line within cell) it
    came from; cell numbers count all cells from 1, as a notebook UI shows them.
    IPython magics (``%``, ``%%``, ``!``) become ``pass`` so positions stay put.
    """
    import json

    try:
        doc = json.loads(source.text)
    except json.JSONDecodeError as exc:
        return FileError(source.display, f"not a valid notebook: invalid JSON ({exc.msg})",
                         line=exc.lineno, column=exc.colno)
    except RecursionError:
        return FileError(source.display, "not a valid notebook: JSON nested too deeply")
    cells = doc.get("cells") if isinstance(doc, dict) else None
    if not isinstance(cells, list):
        return FileError(source.display, "not a valid notebook: no 'cells' list")
    out: list[str] = []
    cell_map: list[tuple[int, int]] = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        if isinstance(src, list):
            src = "".join(s for s in src if isinstance(s, str))
        if not isinstance(src, str):
            continue
        converted = _cell_to_python(src.splitlines())
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse("\n".join(converted) + "\n")
        except SyntaxError as exc:
            # one cell that cannot be parsed must not cost the others: it is analysed as empty
            # and reported on its own (file:cell N:line)
            if cell_errors is not None:
                cell_errors.append(_syntax_error(source, exc, "\n".join(converted),
                                                 [(number, i) for i in range(1, len(converted) + 1)]))
            converted = ["" for _ in converted]
        except ValueError:
            converted = ["" for _ in converted]
        except (RecursionError, MemoryError):
            pass  # parse_python reports a too-deep expression for the whole file
        for i, line in enumerate(converted, start=1):
            out.append(line)
            cell_map.append((number, i))
    return "\n".join(out) + "\n", cell_map


# cell magics whose body is Python: the body is analysed, the magic line becomes `pass`
_PYTHON_CELL_MAGICS = ("time", "timeit", "capture", "prun", "debug", "memit", "snakeviz", "scalene")
_SHELL_ASSIGN = re.compile(r"^(\s*[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*)[!%]")
_TIME_MAGIC = re.compile(r"^%(?:time|timeit|prun|memit)\s+((?:-\w+(?:\s+\d+)?\s+)*)(.+)$")


def _cell_to_python(lines: list[str]) -> list[str]:
    """One code cell as Python, line for line: IPython magics and shell escapes become
    `pass` (or `x = None` for `x = !cmd`), a `\\` continuation of a magic is blanked,
    `%time stmt` keeps its statement and a `%%time` / `%%capture` cell keeps its body."""
    out: list[str] = []
    if lines and lines[0].lstrip().startswith("%%"):
        name = lines[0].lstrip()[2:].split(None, 1)[0] if lines[0].lstrip()[2:].strip() else ""
        body = lines[1:] if name in _PYTHON_CELL_MAGICS else ["" for _ in lines[1:]]
        return ["pass", *(_cell_to_python(body) if body and name in _PYTHON_CELL_MAGICS else body)]
    continuing = False
    for line in lines:
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if continuing:
            continuing = stripped.endswith("\\")
            out.append("")
            continue
        assign = _SHELL_ASSIGN.match(line)
        if assign is not None:
            out.append(assign.group(1) + "None")
            continuing = stripped.endswith("\\")
            continue
        if stripped.startswith(("%", "!")):
            timed = _TIME_MAGIC.match(stripped)
            if timed is not None and parses(timed.group(2)):
                out.append(indent + timed.group(2))
            else:
                out.append(indent + "pass")
                continuing = stripped.endswith("\\")
            continue
        if stripped.endswith("?") and not stripped.startswith("#"):
            out.append(indent + "pass")
            continue
        out.append(line)
    return out


def parses(text: str) -> bool:
    """Whether ``text`` is Python that ``ast`` parses (warnings silenced, every failure False)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True
