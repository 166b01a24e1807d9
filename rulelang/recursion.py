"""Recursion refused: a rules function may not call itself, directly or through others, so
that every call ends. ``recursion_errors`` finds each group of functions that call one another
(from the calls the compiler noted in each ``UserFn``) and reports it once, with one shortest
cycle through it spelled out. Called by ``build.py`` once every function is compiled.
"""

from __future__ import annotations

from collections import deque

from .errors import CheckError, RulesError
from .scope import UserFn

MAX_CYCLE_SHOWN = 12  # names of a cycle a recursion error spells out at most


def _cycle(functions: dict[str, UserFn], group: set[str], start: str) -> list[str]:
    """A shortest way from ``start`` back to itself through ``group`` (breadth first)."""
    came_from: dict[str, str] = {}
    todo = deque([start])
    while todo:
        name = todo.popleft()
        for callee in sorted(functions[name].calls & group):
            if callee == start:
                path = [name]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if callee not in came_from:
                came_from[callee] = name
                todo.append(callee)
    return [start, start]  # not reached: every member of a group is on a cycle


def recursion_errors(functions: dict[str, UserFn]) -> list[RulesError]:
    """Functions may not call themselves, directly or through others: every call ends.

    One error per group of functions that call one another (a strongly connected component,
    found by Tarjan's algorithm without recursion), at the group's first function: linear in
    the number of calls, so that a chain of thousands of functions is checked at once."""
    order = {name: i for i, name in enumerate(functions)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[set[str]] = []
    for root in functions:
        if root in index:
            continue
        work = [(root, iter(sorted(c for c in functions[root].calls if c in functions)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            name, callees = work[-1]
            callee = next(callees, None)
            if callee is not None:
                if callee not in index:
                    index[callee] = low[callee] = len(index)
                    stack.append(callee)
                    on_stack.add(callee)
                    work.append((callee, iter(sorted(
                        c for c in functions[callee].calls if c in functions))))
                elif callee in on_stack:
                    low[name] = min(low[name], index[callee])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[name])
            if low[name] == index[name]:
                group: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == name:
                        break
                if len(group) > 1 or name in functions[name].calls:
                    groups.append(group)
    errors: list[RulesError] = []
    for group in groups:
        start = min(group, key=order.__getitem__)
        cyc = _cycle(functions, group, start)
        if len(cyc) > MAX_CYCLE_SHOWN:
            cyc = [*cyc[:MAX_CYCLE_SHOWN - 2], f"... {len(cyc) - MAX_CYCLE_SHOWN + 1} more",
                   cyc[-1]]
        errors.append(CheckError(
            f"'{start}' calls itself ({' -> '.join(cyc)}); recursion is not allowed, "
            "use a loop or a comprehension", functions[start].span))
    return errors
