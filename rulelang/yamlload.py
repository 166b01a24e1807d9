"""Stage 1: read a YAML file as untrusted data, keeping where every value came from.

Only the safe YAML subset is accepted (no tags that build Python objects). The result is plain
Python data made of ``YMap`` / ``YList`` / ``YStr`` and numbers; containers remember the span of
each child, and strings can map an offset inside themselves back to a file position, so that an
error inside an expression string points at the right character of the YAML file.

Limits (file size, aliases, nesting, node count) are enforced here so that no file can exhaust
the machine before any other stage sees it.
"""

from __future__ import annotations

import bisect
from typing import Any

import yaml

from .errors import LoadError, Span
from .limits import MAX_ALIASES, MAX_FILE_BYTES, MAX_NODES
from .limits import MAX_YAML_DEPTH as MAX_DEPTH

try:  # the C loader is several times faster; both build the same nodes
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Loader = yaml.SafeLoader


_SAFE_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


class YStr(str):
    """A string from a YAML file that knows where each of its characters came from."""

    span: Span
    _starts: list[int] | None
    _raw_index: list[int] | None
    _text: str

    def pos(self, offset: int) -> Span:
        """The span of the character at ``offset`` inside this string."""
        if self._raw_index is None or self._starts is None or not self._raw_index:
            return self.span
        offset = max(0, min(offset, len(self._raw_index) - 1))
        raw = self._raw_index[offset]
        line = bisect.bisect_right(self._starts, raw) - 1
        return self.span.shifted(line + 1, raw - self._starts[line] + 1)


class YMap(dict):
    """A mapping that remembers its own span and the spans of its keys and values."""

    span: Span
    key_spans: dict[str, Span]
    value_spans: dict[str, Span]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.span = getattr(args[0], "span", Span()) if args else Span()
        self.key_spans = {}
        self.value_spans = {}

    def span_of(self, key: str) -> Span:
        return self.value_spans.get(key, self.span)

    def key_span(self, key: str) -> Span:
        return self.key_spans.get(key, self.span)


class YList(list):
    """A sequence that remembers its own span and the span of each item."""

    span: Span
    item_spans: list[Span]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.span = Span()
        self.item_spans = []

    def span_of(self, i: int) -> Span:
        return self.item_spans[i] if 0 <= i < len(self.item_spans) else self.span


def _align(value: str, raw: str, base: int) -> list[int]:
    """For each character of a parsed scalar, the index of its source character in the file.

    Quotes, escapes, folded line breaks and indentation make the two differ; a greedy walk that
    matches equal characters (looking a short way ahead) is exact for ordinary expressions.
    """
    out: list[int] = []
    j = 0
    n = len(raw)
    for ch in value:
        k = j
        limit = min(n, j + 200)
        while k < limit and raw[k] != ch:
            k += 1
        if k < limit:
            out.append(base + k)
            j = k + 1
        else:
            out.append(base + min(j, n - 1) if n else base)
    return out


class _Builder:
    def __init__(self, path: str, text: str, max_nodes: int = MAX_NODES) -> None:
        self.path = path
        self.max_nodes = max_nodes
        self.text = text
        self.starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.starts.append(i + 1)
        self.aliases = 0
        self.nodes = 0
        self.seen: dict[int, Any] = {}  # node -> the plain value built from it

    def span(self, node: yaml.Node) -> Span:
        m = node.start_mark
        return Span(self.path, m.line + 1, m.column + 1, self.text)

    def build(self, node: yaml.Node, depth: int = 0) -> Any:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            if self.max_nodes < MAX_NODES:  # what the files extending it left (rules.py)
                raise LoadError(f"the file has more than {self.max_nodes} values, all that "
                                f"the files extending it leave of the {MAX_NODES} values a "
                                "chain of files may hold", self.span(node))
            raise LoadError(f"the file has more than {MAX_NODES} values", self.span(node))
        if depth > MAX_DEPTH:
            raise LoadError(f"values are nested more than {MAX_DEPTH} deep", self.span(node))
        # An alias is the same node object met again: count them so that a "billion laughs"
        # file is refused at once instead of being expanded. Aliases of plain values count
        # too, and give the value already built (a long text aliased many times reached 4 GB:
        # each copy kept a position for each of its characters).
        if isinstance(node, yaml.ScalarNode):
            return self._plain(node)
        self._alias(node)
        if node.tag not in _SAFE_TAGS:
            raise LoadError(f"the YAML tag '{node.tag}' is not allowed", self.span(node))
        if isinstance(node, yaml.MappingNode):
            return self._map(node, depth)
        if isinstance(node, yaml.SequenceNode):
            out = YList()
            out.span = self.span(node)
            out.item_spans = []
            for item in node.value:
                out.append(self.build(item, depth + 1))
                out.item_spans.append(self.span(item))
            return out
        raise LoadError("this YAML value is not allowed", self.span(node))  # no other kind

    def _alias(self, node: yaml.Node) -> bool:
        """Whether ``node`` was met before (an alias), counted against MAX_ALIASES."""
        key = id(node)
        if key not in self.seen:
            self.seen[key] = None
            return False
        self.aliases += 1
        if self.aliases > MAX_ALIASES:
            raise LoadError(f"the file uses more than {MAX_ALIASES} aliases", self.span(node))
        return True

    def _plain(self, node: yaml.ScalarNode) -> Any:
        """A plain value (a value or a key), built once however often it is aliased."""
        if self._alias(node):
            return self.seen[id(node)]
        if node.tag not in _SAFE_TAGS:
            raise LoadError(f"the YAML tag '{node.tag}' is not allowed", self.span(node))
        value = self.seen[id(node)] = self._scalar(node)
        return value

    def _map(self, node: yaml.MappingNode, depth: int) -> YMap:
        out = YMap()
        out.span = self.span(node)
        out.key_spans = {}
        out.value_spans = {}
        for knode, vnode in node.value:
            if knode.tag == "tag:yaml.org,2002:merge":
                raise LoadError("YAML merge keys ('<<') are not allowed", self.span(knode))
            if not isinstance(knode, yaml.ScalarNode):
                raise LoadError("a key must be a plain value", self.span(knode))
            k = self._plain(knode)
            if isinstance(k, bool) or k is None:
                k = knode.value
            k = str(k) if not isinstance(k, YStr) else k
            if k in out:
                raise LoadError(f"the key '{k}' appears twice", self.span(knode))
            out[k] = self.build(vnode, depth + 1)
            out.key_spans[k] = self.span(knode)
            out.value_spans[k] = self.span(vnode)
        return out

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        tag = node.tag
        value = node.value
        try:
            if tag == "tag:yaml.org,2002:str":
                return self._str(node)
            if tag == "tag:yaml.org,2002:int":
                v = yaml.constructor.SafeConstructor.construct_yaml_int(_CONSTRUCTOR, node)
                if abs(v) > 10**15:
                    raise LoadError("a number larger than 10^15 is not allowed", self.span(node))
                return v
            if tag == "tag:yaml.org,2002:float":
                v = yaml.constructor.SafeConstructor.construct_yaml_float(_CONSTRUCTOR, node)
                if v != v or abs(v) > 1e15:
                    raise LoadError("this number is not allowed", self.span(node))
                return v
            if tag == "tag:yaml.org,2002:bool":
                return yaml.constructor.SafeConstructor.construct_yaml_bool(_CONSTRUCTOR, node)
            if tag == "tag:yaml.org,2002:null":
                return None
        except (ValueError, OverflowError) as exc:
            raise LoadError(f"bad value {value!r}: {exc}", self.span(node)) from None
        return self._str(node)

    def _str(self, node: yaml.ScalarNode) -> YStr:
        s = YStr(node.value)
        s.span = self.span(node)
        s._starts = self.starts
        raw = self.text[node.start_mark.index : node.end_mark.index]
        s._raw_index = _align(node.value, raw, node.start_mark.index)
        return s


_CONSTRUCTOR = yaml.constructor.SafeConstructor()


# PyYAML's problems, each with what usually causes it in a rules file
_HINTS = {
    "found a tab character": "indent with spaces: YAML does not allow tabs in indentation",
    "mapping values are not allowed": "a ': ' inside a value starts a mapping: put the value "
    "in quotes (\"...\") or write the expression without ': '",
    "did not find expected key": "this line's indentation does not match the lines above: "
    "keys of one mapping start in the same column",
    "did not find expected '-' indicator": "this line is indented as an item of the list "
    "above, which starts with '- '",
    "could not find expected ':'": "a key needs ': ' after it (a colon and a space)",
    "found character '%' that cannot start any token": "a value that starts with '%' or '@' "
    "needs quotes",
    "found character '@' that cannot start any token": "a value that starts with '%' or '@' "
    "needs quotes",
}

# the openers whose missing closer PyYAML reports where it gave up (often a line or more
# later): the error points at the opener instead
_OPENERS = {
    "while parsing a flow mapping": "this '{' is not closed by a '}'",
    "while parsing a flow sequence": "this '[' is not closed by a ']'",
    "while scanning a quoted scalar": "this quoted string is not closed",
}


def _explain(exc: yaml.MarkedYAMLError) -> tuple[str, Any]:
    """A YAML error's message, with a hint at its usual cause, and where to point."""
    problem = exc.problem or exc.context or "bad YAML"
    opener = _OPENERS.get(str(exc.context or ""))
    if opener and exc.context_mark is not None:
        where = exc.problem_mark
        late = (f" (the YAML reader gave up at line {where.line + 1}: {problem})"
                if where is not None else "")
        return f"{opener}{late}", exc.context_mark
    hint = next((h for k, h in _HINTS.items() if problem.startswith(k)), "")
    return problem + (f"; {hint}" if hint else ""), exc.problem_mark or exc.context_mark


def load_text(text: str, path: str, max_nodes: int = MAX_NODES) -> Any:
    """Parse YAML text into positioned data; raise ``LoadError`` located in the file."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise LoadError(f"the file is larger than {MAX_FILE_BYTES} bytes", Span(path, 1, 1, text))
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        msg, mark = _explain(exc)
        if mark is None:
            raise LoadError(f"bad YAML: {msg}", Span(path, 1, 1, text)) from None
        raise LoadError(
            f"bad YAML: {msg}", Span(path, mark.line + 1, mark.column + 1, text)
        ) from None
    except yaml.YAMLError as exc:
        raise LoadError(f"bad YAML: {exc}", Span(path, 1, 1, text)) from None
    except RecursionError:
        raise LoadError("the YAML is nested too deeply", Span(path, 1, 1, text)) from None
    if node is None:
        return None
    try:
        b = _Builder(path, text, max_nodes)
        data = b.build(node)
        if isinstance(data, YMap):
            data.nodes = b.nodes  # its values, for the limit on a chain of files (rules.py)
        return data
    except RecursionError:
        raise LoadError("the YAML is nested too deeply", Span(path, 1, 1, text)) from None


def load_file(path: str, shown_as: str | None = None, max_nodes: int = MAX_NODES) -> Any:
    """Read and parse a YAML file; errors name it as ``shown_as`` (the path the user typed).
    ``max_nodes``: the values it may hold (fewer than one file may for a file extended by
    others)."""
    name = shown_as or path
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise LoadError(f"cannot read the file: {exc.strerror}", Span(name)) from None
    if len(data) > MAX_FILE_BYTES:
        raise LoadError(f"the file is larger than {MAX_FILE_BYTES} bytes", Span(name, 1, 1))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8", "replace")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        raise LoadError("the file is not valid UTF-8 text", Span(name, line, col)) from None
    if "\x00" in text:
        k = text.index("\x00")
        line = text.count("\n", 0, k) + 1
        col = k - (text.rfind("\n", 0, k) + 1) + 1
        raise LoadError("the file contains a NUL character", Span(name, line, col, text))
    return load_text(text, name, max_nodes)


def span_of(data: Any, default: Span) -> Span:
    """The span of a loaded value, when it carries one."""
    return getattr(data, "span", default)
