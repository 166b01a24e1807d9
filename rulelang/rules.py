"""Stage 2: find a rules file, follow its ``extends:`` chain, merge, and validate the shape.

A variant states only what differs: maps merge key by key (so named items — zones, phases,
actions, options, functions — merge by name), anything else is replaced, and ``remove:`` lists
dotted paths of inherited items to delete. A function a variant redefines can call the one it
replaces as ``super(...)``.

``extends:`` may name a bundled game or a file under the including file's folder; absolute paths
and ``..`` escapes are refused unless the caller allows them (untrusted files must not read
anything else on the machine).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .errors import (
    LoadError,
    RulesError,
    RulesErrors,
    SchemaError,
    Span,
    did_you_mean,
    reset_hints,
)
from .limits import MAX_EXTENDS_DEPTH, MAX_NODES
from .yamlload import YList, YMap, YStr, load_file

SIG = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*([A-Za-z_][A-Za-z0-9_]*(\s*,\s*[A-Za-z_]"
                 r"[A-Za-z0-9_]*)*)?\s*\)\s*$")


def package_root() -> Path:
    return Path(__file__).resolve().parent


def bundled_dir(kind: str = "games") -> Path:
    """The bundled games (or schemas): beside the package in a checkout or editable install,
    inside it in a wheel."""
    here = package_root()
    inside = here / "_bundled" / kind
    if inside.is_dir():
        return inside
    return here.parent / kind


def bundled_names() -> list[str]:
    d = bundled_dir()
    if not d.is_dir():
        return []
    return sorted(p.stem for p in d.glob("*.yaml") if not p.name.endswith(".scenario.yaml"))


def resolve_game(name_or_path: str, base_dir: Path | None = None) -> Path | None:
    """A game named on the command line or in a scenario: a path, or a bundled game's name."""
    p = Path(name_or_path)
    candidates = []
    if base_dir is not None and not p.is_absolute():
        candidates.append(base_dir / p)
    candidates.append(p)
    for c in candidates:
        if _is_file(c):
            return c
    if "/" not in name_or_path and "\\" not in name_or_path:
        stem = name_or_path[:-5] if name_or_path.endswith(".yaml") else name_or_path
        b = bundled_dir() / f"{stem}.yaml"
        if _is_file(b):
            return b
    return None


def within_reach(path: Path, folder: Path) -> bool:
    """Whether ``path`` lies under ``folder`` or among the bundled games (symbolic links
    followed): where a file that names another (``extends:``, a replay log's game) may point
    unless the caller allows any path."""
    p = path.resolve()
    return folder.resolve() in p.parents or bundled_dir().resolve() in p.parents


def _is_file(p: Path) -> bool:
    """``p.is_file()``, false for a name the system refuses (too long, a NUL byte in it)."""
    try:
        return p.is_file()
    except (OSError, ValueError):
        return False


@cache
def _schema(kind: str) -> dict[str, Any]:
    path = bundled_dir("schemas") / f"{kind}.schema.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _whole_schema(kind: str, partial: bool) -> dict[str, Any]:
    schema = dict(_schema(kind))
    if partial:
        schema.pop("required", None)
    return schema


@cache
def _quick_check(kind: str, partial: bool) -> Callable[[Any], bool] | None:
    from .schemacheck import compile_schema

    return compile_schema(_whole_schema(kind, partial))


def validate(doc: Any, kind: str, path: str, partial: bool = False) -> list[RulesError]:
    """Schema errors, each located at the offending value (or key) of the YAML file."""
    quick = _quick_check(kind, partial)
    # a valid document (nearly every one) needs no jsonschema, whose import is a third of a
    # cold `rulelang check`; an invalid one gets its errors worded by jsonschema as before
    if quick is not None and quick(doc):
        return []
    import jsonschema

    schema = _whole_schema(kind, partial)
    validator = jsonschema.Draft202012Validator(schema)
    errors: list[RulesError] = []
    for e in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
        errors.append(_schema_error(e, doc, path))
    return errors


def _schema_error(e: Any, doc: Any, path: str) -> SchemaError:
    node = doc
    span = getattr(doc, "span", Span(path, 1, 1))
    parent = None
    key: Any = None
    for k in e.absolute_path:
        parent, key = node, k
        if isinstance(node, YMap) and k in node:
            span = node.span_of(k)
            node = node[k]
        elif isinstance(node, YList) and isinstance(k, int) and k < len(node):
            span = node.span_of(k)
            node = node[k]
        else:
            break
    where = ".".join(str(k) for k in e.absolute_path) or "the file"
    v = e.validator
    if v == "additionalProperties" and isinstance(node, YMap):
        allowed = sorted((e.schema.get("properties") or {}).keys())
        extra = [k for k in node if k not in allowed]
        if extra:
            bad = extra[0]
            hint = did_you_mean(bad, allowed)
            msg = (f"unknown key '{bad}' in {where}{hint}; expected one of {', '.join(allowed)}"
                   if allowed else f"unknown key '{bad}' in {where}")
            return SchemaError(msg, node.key_span(bad))
    if v == "required":
        return SchemaError(f"{where} is missing {e.message.split(' is a ')[0]}", span)
    if v == "type":
        want = e.validator_value
        want = " or ".join(want) if isinstance(want, list) else want
        return SchemaError(f"{where} should be {_article(want)}, got {_tname(node)}", span)
    if v == "enum":
        opts = ", ".join(repr(x) for x in e.validator_value)
        return SchemaError(f"{where} must be one of {opts}, got {node!r}", span)
    if v == "oneOf":
        return SchemaError(f"{where} has the wrong shape: {_oneof_hint(e)}", span)
    _ = parent, key
    return SchemaError(f"{where}: {e.message}", span)


def _article(t: str) -> str:
    return f"an {t}" if t[:1] in "aeiou" else f"a {t}"


def _tname(x: Any) -> str:
    if x is None:
        return "nothing (null)"
    if isinstance(x, bool):
        return "a boolean"
    if isinstance(x, int):
        return "an integer"
    if isinstance(x, float):
        return "a number"
    if isinstance(x, str):
        return "a string"
    if isinstance(x, list):
        return "a list"
    return "a mapping"


def _oneof_hint(e: Any) -> str:
    best = e.context[0].message if e.context else e.message
    return best


@dataclass
class Loaded:
    """A merged rules document, with the files it came from."""

    doc: YMap
    path: str
    files: list[tuple[str, str]] = field(default_factory=list)  # (path, sha256 of its text)
    supers: dict[str, list[Any]] = field(default_factory=dict)  # function -> base definitions


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_rules(path_or_name: str, allow_any_path: bool = False, shown_as: str | None = None
               ) -> Loaded:
    """Load a rules file and everything it extends; raise ``RulesErrors`` with every problem."""
    reset_hints()  # a new file: its own number of did-you-mean hints
    path = resolve_game(path_or_name)
    if path is None:
        raise LoadError(f"no rules file or bundled game named '{path_or_name}'"
                        f"{did_you_mean(path_or_name, bundled_names())}", Span(path_or_name))
    shown = shown_as or (path_or_name if Path(path_or_name).is_file() else str(path))
    errors: list[RulesError] = []
    loaded = _load_chain(path, shown, errors, allow_any_path, depth=0, seen=())
    if loaded is None or errors:
        raise RulesErrors(errors or [LoadError("the file is empty", Span(shown, 1, 1))])
    errors.extend(validate(loaded.doc, "rules", shown))
    if errors:
        raise RulesErrors(errors)
    return loaded


def _load_chain(path: Path, shown: str, errors: list[RulesError], allow_any: bool, depth: int,
                seen: tuple[str, ...], left: list[int] | None = None) -> Loaded | None:
    """Load ``path`` and what it extends. ``left``: the values the chain may still hold (the
    limit on one file's values holds for the whole chain, which is loaded and checked as one
    game: eight files of 200,000 values each took a minute to check)."""
    left = [MAX_NODES] if left is None else left
    try:
        doc = load_file(str(path), shown, left[0])
    except LoadError as e:
        errors.append(e)
        return None
    left[0] -= getattr(doc, "nodes", 0)
    if doc is None:
        errors.append(LoadError("the file is empty: a rules file is a YAML mapping",
                                Span(shown, 1, 1)))
        return None
    if not isinstance(doc, YMap):
        errors.append(SchemaError("a rules file must be a YAML mapping (key: value lines)",
                                  getattr(doc, "span", Span(shown, 1, 1))))
        return None
    own = validate(doc, "rules", shown, partial=True)
    if own:
        errors.extend(own)
        return None
    files = [(shown, _sha(path))]
    ext = doc.get("extends")
    if ext is None:
        supers: dict[str, list[Any]] = {}
        doc = _apply_removals(doc, doc, errors)
        return Loaded(doc, shown, files, supers)
    span = doc.span_of("extends")
    if depth >= MAX_EXTENDS_DEPTH:
        errors.append(LoadError(f"extends: is nested more than {MAX_EXTENDS_DEPTH} deep", span))
        return None
    target = _resolve_extends(str(ext), path, allow_any, span, errors)
    if target is None:
        return None
    key = str(target.resolve())
    if key in seen or key == str(path.resolve()):
        errors.append(LoadError(f"extends: '{ext}' leads back to itself", span))
        return None
    base_shown = os.path.relpath(target) if not str(target).startswith(str(bundled_dir())) \
        else str(target)
    base = _load_chain(target, base_shown, errors, allow_any, depth + 1,
                       (*seen, str(path.resolve())), left)
    if base is None:
        if not errors:
            errors.append(LoadError(f"extends: '{ext}' could not be loaded", span))
        return None
    merged, supers = merge(base.doc, doc, base.supers)
    merged = _apply_removals(merged, doc, errors)
    return Loaded(merged, shown, base.files + files, supers)


def _resolve_extends(ext: str, including: Path, allow_any: bool, span: Span,
                     errors: list[RulesError]) -> Path | None:
    p = Path(ext)
    folder = including.resolve().parent
    if not allow_any:
        if p.is_absolute():
            errors.append(LoadError("extends: may not be an absolute path (name a bundled game "
                                    "or a file beside this one)", span))
            return None
    try:
        cand = (folder / p).resolve()
        is_file = cand.is_file()
    except (OSError, ValueError):  # a name too long for the system, a NUL byte in it
        errors.append(LoadError(f"extends: '{ext[:80]}' is not a usable file name", span))
        return None
    if is_file:
        if not allow_any and not within_reach(cand, folder):
            errors.append(LoadError(f"extends: '{ext}' is outside this file's folder; only files "
                                    "under it and bundled games may be extended", span))
            return None
        return cand
    if "/" not in ext:
        stem = ext[:-5] if ext.endswith(".yaml") else ext
        b = bundled_dir() / f"{stem}.yaml"
        if b.is_file():
            return b
    errors.append(LoadError(f"extends: no rules file or bundled game named '{ext}'"
                            f"{did_you_mean(ext, bundled_names())}", span))
    return None


def func_name(key: str) -> str:
    m = SIG.match(key)
    return m.group(1) if m else key


def merge(base: Any, over: Any, supers: dict[str, list[Any]] | None = None,
          path: tuple[str, ...] = ()) -> tuple[Any, dict[str, list[Any]]]:
    """``over`` laid on ``base``: maps merge by key, everything else is replaced."""
    supers = dict(supers or {})
    if not (isinstance(base, YMap) and isinstance(over, YMap)):
        return over, supers
    out = YMap(base)
    out.span = over.span
    out.key_spans = {**base.key_spans, **over.key_spans}
    out.value_spans = {**base.value_spans, **over.value_spans}
    for k, v in over.items():
        if path == () and k in ("extends", "remove"):
            continue
        if path in (("functions",), ("procedures",)):
            name = func_name(k)
            old = next((bk for bk in base if func_name(bk) == name), None)
            if old is not None:
                supers.setdefault(name, []).append((old, base[old]))
                del out[old]
            out[k] = v
            continue
        if k in base:
            out[k], supers = merge(base[k], v, supers, (*path, k))
        else:
            out[k] = v
    return out, supers


def _apply_removals(doc: YMap, own: YMap, errors: list[RulesError]) -> YMap:
    rem = own.get("remove")
    if not rem:
        return doc
    for i, item in enumerate(rem):
        parts = str(item).split(".")
        node: Any = doc
        for p in parts[:-1]:
            node = node.get(p) if isinstance(node, dict) else None
        last = parts[-1]
        if isinstance(node, dict) and parts[0] in ("functions", "procedures"):
            last = next((k for k in node if func_name(k) == last), last)
        if not isinstance(node, dict) or last not in node:
            errors.append(SchemaError(f"remove: there is no inherited '{item}' to remove",
                                      rem.span_of(i)))
            continue
        del node[last]
    return doc


def as_str(x: Any, span: Span) -> YStr:
    """A value of the rules file as rules text (numbers and booleans written bare are fine)."""
    if isinstance(x, YStr):
        return x
    text = "true" if x is True else "false" if x is False else "none" if x is None else str(x)
    s = YStr(text)
    s.span = span
    s._starts = None
    s._raw_index = None
    return s
