"""``dataclass`` and ``field`` for the modules on preflight's start-up path, without code generation.

The standard :func:`dataclasses.dataclass` compiles its ``__init__``, ``__repr__``, ``__eq__``,
``__hash__`` and (frozen) ``__setattr__``/``__delattr__`` from generated source each time a
module is imported, and importing :mod:`dataclasses` pulls in :mod:`inspect`. For a command
that runs for a fraction of a second this is a large share of the run: measured on this
project's check path (46 classes), about 0.5-1 ms per class, plus the imports.

This module builds ``__repr__``, ``__eq__``, ``__hash__`` and the frozen guards from closures
and a generic ``__init__`` that compiles a specialised one once the class is constructed
often, so importing compiles nothing and a short run compiles little.
It implements the subset preflight uses, with the standard library's semantics:

* ``@dataclass``, ``@dataclass(frozen=..., eq=..., repr=..., unsafe_hash=...)``;
* ``field(default=..., default_factory=..., repr=..., compare=..., hash=...)``;
* fields inherited from decorated base classes, ``ClassVar`` annotations skipped,
  ``__post_init__`` called after ``__init__``;
* hashing as the standard library decides it: ``eq`` and ``frozen`` give a hash of the
  compared fields, ``eq`` without ``frozen`` makes instances unhashable, ``eq=False`` keeps
  identity hashing.

Anything else (``order``, ``slots``, ``kw_only``, ``InitVar``) raises ``TypeError`` at
decoration time rather than behaving differently. Type checkers see the standard library's
``dataclass`` (via ``TYPE_CHECKING``), so annotations and checking stay as usual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

__all__ = ["FrozenInstanceError", "dataclass", "field"]


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen record."""


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class Field:
    __slots__ = ("compare", "default", "default_factory", "hash", "name", "repr")

    def __init__(self, default: Any, default_factory: Any, repr: bool, compare: bool,
                 hash: Optional[bool]) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare
        self.hash = hash


def _field(*, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True,
           compare: bool = True, hash: Optional[bool] = None) -> Any:
    return Field(default, default_factory, repr, compare, hash)


def _is_classvar(annotation: Any) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar", "t.ClassVar"))
    return getattr(annotation, "__origin__", None) is not None and "ClassVar" in repr(annotation)


def _collect(cls: type) -> list[Field]:
    fields: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__record_fields__", ()):
            fields[f.name] = f
    # Python 3.9-3.13 keep a class's own annotations in its __dict__ (3.14 makes them lazy);
    # inspect.get_annotations would import inspect, which this module exists to avoid.
    own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063
    for name, annotation in own.items():
        if _is_classvar(annotation):
            continue
        if isinstance(annotation, str) and annotation.startswith(("InitVar", "KW_ONLY")):
            raise TypeError(f"{cls.__qualname__}.{name}: {annotation} is not supported here")
        value = cls.__dict__.get(name, MISSING)
        if isinstance(value, Field):
            f = value
        else:
            f = Field(value, MISSING, True, True, None)
        if f.default_factory is MISSING and isinstance(f.default, (list, dict, set)):
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: "
                             "use default_factory")
        f.name = name
        if f.default is MISSING:
            if name in cls.__dict__:
                delattr(cls, name)
        else:
            setattr(cls, name, f.default)
        fields.pop(name, None)
        fields[name] = f
    seen_default = False
    for f in fields.values():
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
        seen_default = seen_default or has_default
    return list(fields.values())


_COMPILE_AFTER = 64  # instantiations of one class before its __init__ is compiled


def _make_init(cls: type, fields: list[Field]) -> Callable[..., None]:
    """``__init__`` that starts generic and compiles itself once the class is hot.

    A one-file ``check`` creates most record classes a handful of times: compiling an
    ``__init__`` for each (what dataclasses does at import) would cost more than all
    those constructions. A class constructed more than ``_COMPILE_AFTER`` times gets a
    compiled ``__init__``, as fast as a standard dataclass's, for the rest of the run.
    """
    post_init = getattr(cls, "__post_init__", None) is not None
    names = tuple(f.name for f in fields)
    count = len(names)
    known = frozenset(names)
    tail = tuple((f.name, f.default, f.default_factory) for f in fields)
    qualname = cls.__qualname__
    calls = [0]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        calls[0] += 1
        if calls[0] > _COMPILE_AFTER and cls.__dict__.get("__init__") is __init__:
            cls.__init__ = _compile_init(cls, fields, post_init)  # type: ignore[misc]
        given = len(args)
        if given > count:
            raise TypeError(f"{qualname}.__init__() takes {count + 1} positional arguments "
                            f"but {given + 1} were given")
        values = self.__dict__  # empty: only fields go in before __post_init__
        values.update(zip(names, args))
        if kwargs:
            for key, value in kwargs.items():
                if key not in known:
                    raise TypeError(f"{qualname}.__init__() got an unexpected keyword argument {key!r}")
                if key in values:
                    raise TypeError(f"{qualname}.__init__() got multiple values for argument {key!r}")
                values[key] = value
        if len(values) < count:
            for name, default, factory in tail[given:]:
                if name in values:
                    continue
                if default is not MISSING:
                    values[name] = default
                elif factory is not MISSING:
                    values[name] = factory()
                else:
                    raise TypeError(f"{qualname}.__init__() missing required argument: {name!r}")
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = f"{qualname}.__init__"
    return __init__


def _compile_init(cls: type, fields: list[Field], post_init: bool) -> Callable[..., None]:
    namespace: dict[str, Any] = {"__record_missing__": MISSING}
    params: list[str] = []
    body: list[str] = []
    for i, f in enumerate(fields):
        if f.default is not MISSING:
            namespace[f"__record_default_{i}__"] = f.default
            params.append(f"{f.name}=__record_default_{i}__")
            body.append(f"__record_d__[{f.name!r}] = {f.name}")
        elif f.default_factory is not MISSING:
            namespace[f"__record_factory_{i}__"] = f.default_factory
            params.append(f"{f.name}=__record_missing__")
            body.append(f"__record_d__[{f.name!r}] = __record_factory_{i}__() "
                        f"if {f.name} is __record_missing__ else {f.name}")
        else:
            params.append(f.name)
            body.append(f"__record_d__[{f.name!r}] = {f.name}")
    if post_init:
        body.append("__record_self__.__post_init__()")
    lines = [f"def __init__(__record_self__, {', '.join(params)}):" if params
             else "def __init__(__record_self__):",
             "    __record_d__ = __record_self__.__dict__",
             *(f"    {line}" for line in body)]
    exec("\n".join(lines), namespace)  # the same technique as dataclasses, deferred
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


_repr_running: set[int] = set()  # ids of records whose repr is being built (cycles print "...")


def _make_repr(fields: list[Field]) -> Callable[[Any], str]:
    names = tuple(f.name for f in fields if f.repr)

    def __repr__(self: Any) -> str:
        running = _repr_running
        key = id(self)
        if key in running:
            return "..."
        running.add(key)
        try:
            inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        finally:
            running.discard(key)
        return f"{type(self).__qualname__}({inner})"

    return __repr__


def _make_eq(fields: list[Field]) -> Callable[[Any, Any], Any]:
    names = tuple(f.name for f in fields if f.compare)

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine, theirs = self.__dict__, other.__dict__
        return all(mine[n] == theirs[n] for n in names)

    return __eq__


def _make_hash(fields: list[Field]) -> Callable[[Any], int]:
    names = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))

    def __hash__(self: Any) -> int:
        values = self.__dict__
        return hash(tuple(values[n] for n in names))

    return __hash__


def _make_frozen(cls: type, fields: list[Field]) -> tuple[Callable[..., None], Callable[..., None]]:
    names = frozenset(f.name for f in fields)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)  # type: ignore[arg-type]  # mypy: cls is a type

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)  # type: ignore[arg-type]  # mypy: cls is a type

    return __setattr__, __delattr__


def _process(cls: type, *, frozen: bool, eq: bool, repr: bool, unsafe_hash: bool) -> type:
    fields = _collect(cls)
    cls.__record_fields__ = tuple(fields)  # type: ignore[attr-defined]
    own = cls.__dict__
    if "__init__" not in own:
        cls.__init__ = _make_init(cls, fields)  # type: ignore[misc]
    # setattr: methods made at run time, which a type checker cannot follow
    if repr and "__repr__" not in own:
        setattr(cls, "__repr__", _make_repr(fields))  # noqa: B010
    if eq and "__eq__" not in own:
        setattr(cls, "__eq__", _make_eq(fields))  # noqa: B010
    if frozen:
        setattr_, delattr_ = _make_frozen(cls, fields)
        setattr(cls, "__setattr__", setattr_)  # noqa: B010
        setattr(cls, "__delattr__", delattr_)  # noqa: B010
    explicit_hash = "__hash__" in own and own["__hash__"] is not None
    if unsafe_hash or (eq and frozen and not explicit_hash):
        setattr(cls, "__hash__", _make_hash(fields))  # noqa: B010
    elif eq and not frozen and not explicit_hash:
        cls.__hash__ = None  # type: ignore[assignment]
    return cls


def _dataclass(cls: Optional[type] = None, /, *, frozen: bool = False, eq: bool = True,
               repr: bool = True, unsafe_hash: bool = False, **unsupported: Any) -> Any:
    if unsupported:
        raise TypeError(f"preflight._record.dataclass does not support {sorted(unsupported)}")

    def wrap(c: type) -> type:
        return _process(c, frozen=frozen, eq=eq, repr=repr, unsafe_hash=unsafe_hash)

    return wrap if cls is None else wrap(cls)


if TYPE_CHECKING:
    from dataclasses import dataclass, field
else:
    dataclass = _dataclass
    field = _field
