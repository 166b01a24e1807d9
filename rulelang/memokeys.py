"""Two kinds of memo key that ``codegen.memo`` writes into its wrapper: deep keys (lists of
lists, for a function's tail remembered by its ``let`` values: lettail.py) and a list that an
order-free key cannot sort, keyed in its order instead of not at all.
"""

from __future__ import annotations

from typing import Any


def deep_parts(params: list[str]) -> tuple[list[str], str]:
    """Each parameter's items in a deep key (a list inside as a tuple), and what its size adds
    to the key's: the items of the lists inside (charged with the list's)."""
    items = [f"[tuple(x) if type(x) is list else x for x in {p}]" for p in params]
    more = "".join(f" + (sum([len(x) for x in {p} if type(x) is list]) if type({p}) is list "
                   "else 0)" for p in params)
    return items, more


def exact_fallback(head: list[str], params: list[str], items: list[str], args: str) -> None:
    """Into the wrapper's lines ``head``: where its order-free key refuses a list (sum() of
    texts, none or lists raised a TypeError), the key with every list in its order, as any
    other list is keyed (a list holding lists is then refused by hashing, as before). Such a
    key is the exact list, so a float result is kept too (``loose``; see _kept_items)."""
    k = len(params)
    exact = [f"(tuple({it}) if {'t' if p == 'a0' and k > 1 else f'type({p})'} is list "
             f"else {p})" for p, it in zip(params, items)]
    key = f"tuple({items[0]})" if k == 1 else "(" + ", ".join(exact) + ")"
    at = next(i for i, line in enumerate(head)
              if line.endswith("hit = get(key)  # (value, cost): never None"))
    ind = head[at][:len(head[at]) - len(head[at].lstrip())]
    assert head[at + 1] == ind[4:] + "except TypeError:"
    end = next(i for i in range(at + 2, len(head)) if head[i] == f"{ind}return inner({args})")
    head[at + 2:end + 1] = [f"{ind}try:", f"{ind}    key = {key}", f"{ind}    hit = get(key)",
                            f"{ind}    loose = False", f"{ind}except TypeError:",
                            *("    " + line for line in head[at + 2:end + 1])]
    head.insert(0, "    loose = True")


def closed(src: str, free: dict[str, Any], ns: dict[str, Any], compiled: Any) -> Any:
    """The wrapper ``_m`` that ``src`` defines, its own values (``free``: the function, its
    cache, counts...) a closure's, not globals: one code object serves every memo of that
    shape, with the globals ``ns`` they all share, so that Python's specialised reads of
    globals are not undone by each call of another memo (they are kept per namespace)."""
    made = "\n".join([f"def _make({', '.join(free)}):",
                       *("    " + line for line in src.split("\n")), "    return _m"])
    local: dict[str, Any] = {}
    exec(compiled(made, "<rules memo>", "exec"), ns, local)
    m = local["_make"](**free)
    m.memo = free  # (what tests and tools look into)
    return m
