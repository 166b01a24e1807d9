"""Two kinds of memo key that ``memo.memo`` writes into its wrapper: deep keys (lists of
lists, for a function's tail remembered by its ``let`` values: lettail.py) and a list that an
order-free key cannot sort, keyed in its order instead of not at all; and the wrapper of a memo
paused for good (``paused_wrapper``).
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


def paused_wrapper(k: int, size: str, args: str, key_items: int) -> str:
    """The source of ``memo.memo``'s wrapper for a memo paused for good (``cheap``): what
    its paused path does and nothing else, the key's ``size`` items charged (none past
    ``key_items``, where no key would be built) and the function called: no key, no count of
    the calls left, a few steps a call instead of a dozen."""
    head = ["    t = type(a0)" if k else "    pass", f"    n = {size}",
            f"    if n > {key_items}:", f"        return inner({args})",
            "    w = WORK[0] - n", "    if w < 0:", "        out_of_work()",
            "    WORK[0] = w", f"    return inner({args})"]
    if k == 1:  # (the same for a list, tested for first)
        head[:2] = ["    if type(a0) is list:", "        n = len(a0)", "    else:",
                    "        t = type(a0)", f"        n = {size}"]
    return "\n".join([f"def _m({args}):", *head, "", "def forget():", "    cache.clear()",
                      "    used[0] -= mine[0]", "    mine[0] = 0"])


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
