"""Per-file analysis context shared by all rules.

Built once per file: one walk indexes nodes by type and records parents, so a
rule asks ``ctx.nodes(ast.Call)`` instead of walking the tree again. Heavier
analyses (scopes, dataflow) are computed on first use and cached here, so each
is done at most once per file however many rules read it.
"""

from __future__ import annotations

import ast
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar, Union, overload

from preflight.analysis.syntax import child_fields
from preflight.diagnostics import Evidence, Finding, Fix, Severity, Span
from preflight.sources import ParsedPython

if TYPE_CHECKING:
    from preflight.rules.base import Rule

N = TypeVar("N", bound=ast.AST)
N2 = TypeVar("N2", bound=ast.AST)
N3 = TypeVar("N3", bound=ast.AST)
N4 = TypeVar("N4", bound=ast.AST)
N5 = TypeVar("N5", bound=ast.AST)

# the fields walked per node type (analysis.syntax.child_fields: no shared singletons, no names)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


class FileContext:
    def __init__(self, parsed: ParsedPython, options: Optional[dict[str, Any]] = None) -> None:
        self.parsed = parsed
        self.tree = parsed.tree
        self.path = parsed.source.display
        self.options = options or {}
        self._by_type: dict[type, list[ast.AST]] = {}
        self._sorted: set[type] = set()
        # Parents live here, not on the nodes: a pointer from child to parent on the node would
        # make every tree a reference cycle that only the garbage collector's full passes free,
        # and the expression-context and operator nodes (``ast.Load``, ``ast.Add``) are shared by
        # every tree the interpreter parses, so a parent set on them points into another file.
        self._parents: dict[ast.AST, ast.AST] = {}
        self._cache: dict[str, Any] = {}
        self._index()

    # -- structure ---------------------------------------------------------
    def _index(self) -> None:
        """One walk: nodes by type and each node's parent. The ``ctx``/``op``/``ops`` fields
        (shared singletons, a third of all nodes) are neither indexed nor given a parent, and
        fields that never hold a node (names, constants' values) are not read."""
        by_type = self._by_type
        parents = self._parents
        fields_of = _CHILD_FIELDS
        ast_type = ast.AST
        stack: list[ast.AST] = [self.tree]
        pop, push = stack.pop, stack.append
        while stack:
            node = pop()
            kind = type(node)
            found = by_type.get(kind)
            if found is None:
                by_type[kind] = [node]
            else:
                found.append(node)
            fields = fields_of.get(kind)
            if fields is None:
                fields = fields_of[kind] = child_fields(kind)[::-1]
            for name in fields:  # reversed (see child_fields): popped in source order
                value = getattr(node, name, None)
                if isinstance(value, list):
                    for item in reversed(value):
                        if isinstance(item, ast_type):
                            parents[item] = node
                            push(item)
                elif isinstance(value, ast_type):
                    parents[value] = node
                    push(value)

    def _of_type(self, kind: type) -> list[ast.AST]:
        found = self._by_type.get(kind)
        if found is None:
            return []
        if kind not in self._sorted:
            # The walk is in pre-order, each node's fields in their order: statements come
            # out in source order already (a statement lies only in a statement list, and its
            # descendants lie between it and its next sibling). Other nodes do not (a dict's
            # keys come before its values, a def's decorators after its body): sorted lazily.
            if not issubclass(kind, ast.stmt):
                _sort(found)
            self._sorted.add(kind)
        return found

    # The overloads give mypy the union of the types asked for (`nodes(ast.Assign,
    # ast.AnnAssign)` holds only those two), so an `isinstance` on one leaves the other.
    @overload
    def nodes(self, t1: type[N], /) -> list[N]: ...
    @overload
    def nodes(self, t1: type[N], t2: type[N2], /) -> list[Union[N, N2]]: ...
    @overload
    def nodes(self, t1: type[N], t2: type[N2], t3: type[N3], /) -> list[Union[N, N2, N3]]: ...
    @overload
    def nodes(self, t1: type[N], t2: type[N2], t3: type[N3],
              t4: type[N4], /) -> list[Union[N, N2, N3, N4]]: ...
    @overload
    def nodes(self, t1: type[N], t2: type[N2], t3: type[N3], t4: type[N4],
              t5: type[N5], /) -> list[Union[N, N2, N3, N4, N5]]: ...
    @overload
    def nodes(self, *types: type[ast.AST]) -> list[Any]: ...

    def nodes(self, *types: type[ast.AST]) -> list[Any]:
        """All nodes of the given types, in source order."""
        if len(types) == 1:
            return list(self._of_type(types[0]))
        out: list[ast.AST] = []
        runs = 0
        for t in types:
            found = self._of_type(t)
            if found:
                out.extend(found)
                runs += 1
        if runs > 1:  # one list alone is in source order already
            _sort(out)
        return out

    def select(self, kind: type[N], keep: Callable[[N], Any]) -> list[N]:
        """The nodes of one type that ``keep`` accepts, in source order, as
        ``[n for n in ctx.nodes(kind) if keep(n)]`` gives them: the index is filtered first and
        only what is kept is sorted (a file's names or attributes need not all be)."""
        found = self._by_type.get(kind)
        if not found:
            return []
        out = [n for n in found if keep(n)]  # type: ignore[arg-type]
        if kind not in self._sorted and not issubclass(kind, ast.stmt):
            _sort(out)  # stable: equal positions keep the walk's order, as in the full sort
        return out  # type: ignore[return-value]

    def unordered(self, kind: type[N]) -> list[N]:
        """All nodes of one type in no particular order, without the sort and the copy of
        :meth:`nodes`: for a reader that only collects them into sets or counts (the
        file's names are a fifth of its nodes). The list is the index's own: never change it."""
        return self._by_type.get(kind, [])  # type: ignore[return-value]

    def call_names(self) -> frozenset[str]:
        """The last name of every call's callee in the file (``step`` for ``opt.step()``,
        ``DataLoader`` for ``DataLoader(...)``), once per file: a reader looking for calls of a
        few names skips a file that makes none in one set test instead of a pass over its calls."""
        found = self._cache.get("call-names")
        if found is None:
            names: set[str] = set()
            attribute, name = ast.Attribute, ast.Name
            for call in self._by_type.get(ast.Call, ()):
                func = call.func  # type: ignore[attr-defined]
                kind = type(func)
                if kind is attribute:
                    names.add(func.attr)
                elif kind is name:
                    names.add(func.id)
            found = self._cache["call-names"] = frozenset(names)
        return found

    def parent(self, node: ast.AST) -> Optional[ast.AST]:
        return self._parents.get(node)

    def ancestors(self, node: ast.AST):
        parents = self._parents
        cur = parents.get(node)
        while cur is not None:
            yield cur
            cur = parents.get(cur)

    def under(self, node: ast.AST, root: ast.AST) -> bool:
        """Whether ``node`` lies in ``root``'s subtree (``root`` itself included)."""
        return node is root or any(a is root for a in self.ancestors(node))

    def walk_order(self, nodes: list[N], root: ast.AST) -> list[N]:
        """``nodes`` (each in ``root``'s subtree) in the order ``ast.walk(root)`` visits them:
        breadth first, each node's children in field order. For a reader that needs the order
        of a walk of a large function for a few of its nodes: each node's path is read upwards."""
        parents = self._parents

        def key(node: ast.AST) -> tuple[int, list[int]]:
            path: list[int] = []
            cur = node
            while cur is not root:
                parent = parents[cur]
                path.append(_child_index(parent, cur))
                cur = parent
            path.reverse()
            return len(path), path

        return sorted(nodes, key=key)

    def enclosing(self, node: ast.AST, *types: type[N]) -> Optional[N]:
        for anc in self.ancestors(node):
            if isinstance(anc, types):
                return anc
        return None

    def enclosing_function(self, node: ast.AST) -> Optional[ast.AST]:
        return self.enclosing(node, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)

    def enclosing_loop(self, node: ast.AST) -> Optional[ast.AST]:
        """The nearest ``for``/``while`` loop around ``node`` in its own function (None past a ``def``
        or ``lambda``)."""
        for parent in self.ancestors(node):
            if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)):
                return parent
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return None
        return None

    def mentions(self, text: str) -> bool:
        """Whether the file's text holds ``text``: as written, or in the NFKC form in which
        Python reads identifiers (``ｒａｎｄ`` is ``rand``). A rule's cheap first test.

        A ``text`` made of identifier characters only (most are) is looked for in the file's
        distinct words (see :func:`_words`), a fifth of its size, with the same answer."""
        source = self._text()
        word = _WORD_NEEDLES.get(text)
        if word is None:
            word = _WORD_NEEDLES[text] = text.isascii() and all(c in _WORD_CHARS for c in text)
        if word:
            needle = text.encode("ascii")
            if needle in self.cached("text.words.joined", lambda: b"\n".join(self._words(source))):
                return True
            if source.isascii() or self._nfkc(source) is source:
                return False
            return needle in self.cached("text.nfkc.words.joined",
                                         lambda: b"\n".join(self._words(self._nfkc(source))))
        if text in source:
            return True
        if source.isascii():
            return False
        nfkc = self._nfkc(source)
        return nfkc is not source and text in nfkc

    def mentioned(self, needles: frozenset[str]) -> set[str]:
        """The ``needles`` the file mentions, each as :meth:`mentions` answers it. The needles
        of identifier characters are found through the file's distinct words, each word's
        needles remembered across files (see :class:`_NeedleWords`); the others in the text."""
        source = self._text()
        word_needles, other = _split_needles(needles)
        table = _needle_words(word_needles)
        found = table.found(self._words(source))
        if not source.isascii():
            nfkc = self._nfkc(source)
            if nfkc is not source:
                found |= table.found(self._words(nfkc))
            found.update(n for n in other if self.mentions(n))
        else:
            words = self._words(source)
            found.update(n for n in other if _bounded_words(n) <= words and n in source)
        return found

    def _text(self) -> str:
        return self.parsed.text if self.parsed.text is not None else self.parsed.source.text

    def _words(self, text: str) -> set[bytes]:
        """The distinct words of ``text`` (the file's text or its NFKC form), once each."""
        key = "text.words" if text is self._text() else "text.nfkc.words"
        return self.cached(key, lambda: _words(text))

    def _nfkc(self, source: str) -> str:
        """The NFKC form of the text: the text itself when it is already in that form (most
        non-ASCII files: accented letters, typographic quotes, emoji)."""
        def build() -> str:
            import unicodedata  # only for a file with a non-ASCII character

            if unicodedata.is_normalized("NFKC", source):
                return source
            return unicodedata.normalize("NFKC", source)

        return self.cached("text.nfkc", build)

    def cached(self, key: str, compute: Callable[[], Any]) -> Any:
        """A per-file analysis computed once and shared by every rule."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def release(self) -> None:
        """Break the reference cycles of this file's analyses once every rule has run.

        The analyses point back at the context (``ScopeIndex.ctx``) and at each other
        (``ScopeIndex`` and ``Bindings``, functions and their parents), so a file's tree would
        otherwise outlive the file until the garbage collector traced the whole of it. Freed
        here, it goes by reference counting, and the engine's per-file collection has almost
        nothing left to trace. The context is unusable afterwards."""
        cache, self._cache = self._cache, {}
        for value in cache.values():
            release = getattr(value, "release", None)
            if release is not None:
                release()
            state = getattr(value, "__dict__", None)
            if isinstance(state, dict) and not isinstance(value, type):
                state.clear()
        self._by_type.clear()
        self._parents.clear()

    # -- positions ---------------------------------------------------------
    def span(self, node: ast.AST) -> Span:
        index = self.parsed.index
        line = getattr(node, "lineno", 1)
        end_line = getattr(node, "end_lineno", None) or line
        col = index.char_col(line, getattr(node, "col_offset", 0))
        end_byte = getattr(node, "end_col_offset", None)
        if end_byte is None:
            end_col = len(index.line_text(end_line))
        else:
            end_col = index.char_col(end_line, end_byte)
        return Span(line, col + 1, end_line, end_col + 1)

    def user_span(self, span: Span) -> tuple[Optional[int], Span]:
        """Map a span of the analysed text to what the user sees (notebook cells)."""
        if self.parsed.cell_map is None:
            return None, span
        cell, line = self.parsed.locate(span.line)
        end_cell, end_line = self.parsed.locate(span.end_line)
        if end_cell != cell:
            end_line = line
        return cell, Span(line, span.column, end_line, span.end_column)

    def evidence(self, node: ast.AST, message: str) -> Evidence:
        span = self.span(node)
        cell, uspan = self.user_span(span)
        if cell is not None:
            message = f"[cell {cell}] {message}"
        return Evidence(line=uspan.line, column=uspan.column, message=message)

    def finding(
        self,
        rule: Rule | type[Rule],
        node: ast.AST,
        message: str,
        *,
        evidence: Optional[list[Evidence]] = None,
        fix: Optional[Fix] = None,
        severity: Optional[Severity] = None,
    ) -> Finding:
        span = self.span(node)
        source_line = self.parsed.index.line_text(span.line)
        cell, uspan = self.user_span(span)
        if fix is not None and cell is not None:
            fix = None  # fixes are not applied inside notebooks
        return Finding(
            code=rule.code,
            severity=severity if severity is not None else rule.severity,
            category=rule.category,
            path=self.path,
            span=uspan,
            message=message,
            evidence=evidence or [],
            fix=fix,
            cell=cell,
            source_line=source_line,
            analysed_lines=(span.line, span.end_line),
        )

    def fix(self, node: ast.AST, description: str, operation: str, **params: str) -> Fix:
        return Fix(description=description, operation=operation, target=self.span(node),
                   params=tuple(sorted(params.items())))


_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_WORD_NEEDLES: dict[str, bool] = {}  # needle -> made of _WORD_CHARS only
# UTF-8 bytes: an ASCII byte that is no identifier character becomes a space; the others
# (identifier characters and every byte of a non-ASCII character) stay
_RUNS = bytes(c if c >= 128 or chr(c) in _WORD_CHARS else 32 for c in range(256))


_SPLIT: dict[frozenset[str], tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _split_needles(needles: frozenset[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(needles of identifier characters only, the others), once per set of needles."""
    known = _SPLIT.get(needles)
    if known is None:
        word = tuple(n for n in needles if n.isascii() and all(c in _WORD_CHARS for c in n))
        known = _SPLIT[needles] = (word, tuple(n for n in needles if n not in word))
    return known


_BOUNDED: dict[str, frozenset[bytes]] = {}


def _bounded_words(needle: str) -> frozenset[bytes]:
    """The runs of identifier characters that ``needle`` (ASCII) closes on both sides: each is
    then a whole word of any text holding the needle (``module`` of ``.module(``), so a text
    whose words lack one cannot hold it, and the substring search is skipped."""
    known = _BOUNDED.get(needle)
    if known is None:
        if not needle.isascii():
            return frozenset()
        runs = needle.encode("ascii").translate(_RUNS).split(b" ")
        # the first and last runs may continue outside the needle: only inner ones are whole
        known = _BOUNDED[needle] = frozenset(r for r in runs[1:-1] if r)
    return known


def _words(text: str) -> set[bytes]:
    """The distinct maximal runs of identifier characters of ``text`` (any non-ASCII
    character counts as one), as UTF-8. A needle of ASCII identifier characters occurs in
    ``text`` exactly when it occurs in one of them, since every occurrence lies inside one
    run. Runs are cut in C: ``bytes.translate`` and ``split``."""
    raw = text.encode("utf-8", "surrogatepass")
    return set(raw.translate(_RUNS).split())


class _NeedleWords:
    """Which needles (identifier characters only) each word holds, remembered across files.

    The engine asks every file for the same 60-odd needles. Most of a file's distinct words
    were seen in earlier files (``self``, ``torch``, ``hidden_states``), so only the new ones
    are searched: joined, each needle looked for once in them, and the few words that hold one
    remembered with the needles they hold. A file's answer is then a set intersection. At most
    :data:`_MAX_WORDS` words are remembered; past that the memory starts again."""

    def __init__(self, needles: tuple[str, ...]) -> None:
        self.needles = tuple(n.encode("ascii") for n in needles)
        self.seen: set[bytes] = set()
        self.holding: dict[bytes, frozenset[str]] = {}
        self.holders: set[bytes] = set()

    def found(self, words: set[bytes]) -> set[str]:
        new = words - self.seen
        if new:
            if len(self.seen) + len(new) > _MAX_WORDS:
                self.seen.clear()
                self.holding.clear()
                self.holders.clear()
                new = words
            joined = b"\n".join(new)
            for needle in self.needles:
                if needle in joined:
                    name = needle.decode("ascii")
                    for w in new:
                        if needle in w:
                            self.holding[w] = self.holding.get(w, frozenset()) | {name}
                            self.holders.add(w)
            self.seen |= new
        out: set[str] = set()
        for w in words & self.holders:
            out |= self.holding[w]
        return out


_MAX_WORDS = 200_000
_NEEDLE_TABLES: dict[tuple[str, ...], _NeedleWords] = {}


def _needle_words(needles: tuple[str, ...]) -> _NeedleWords:
    table = _NEEDLE_TABLES.get(needles)
    if table is None:
        if len(_NEEDLE_TABLES) >= 16:  # the engine uses one set; tests many
            _NEEDLE_TABLES.clear()
        table = _NEEDLE_TABLES[needles] = _NeedleWords(needles)
    return table


def _child_index(parent: ast.AST, child: ast.AST) -> int:
    """Where ``child`` comes among ``ast.iter_child_nodes(parent)``."""
    for i, node in enumerate(ast.iter_child_nodes(parent)):
        if node is child:
            return i
    raise ValueError("not a child")  # pragma: no cover - the parent map says it is


def _position(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


_LINE_COLUMN = attrgetter("lineno", "col_offset")


def _sort(nodes: list[Any]) -> None:
    """Sort by position, stably, as ``key=_position`` does: by ``(lineno, col_offset)`` read in
    C when every node has them (a node without them, e.g. ``ast.arguments``, counts as 0)."""
    try:
        nodes.sort(key=_LINE_COLUMN)
    except AttributeError:  # the keys are computed before the list is touched: it is unchanged
        nodes.sort(key=_position)
