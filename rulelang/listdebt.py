"""A listing's kept calls reached again charged at its end, the listing made again if need be.

A call of an action's ``when`` that no argument changes is kept for the listing (hoist.py) as
(work left before, value, work left after), and each later time a card reaches it its work is
charged again (``hoist.held_again``): a call of a Python function per card and per kept call,
most of what a trick-taking game's follow-suit listing costs beyond its tests. Here the listing
notes those charges in a list instead and takes their sum from the allowance once, at its end.

That is exact because a listing changes nothing but the work allowance, and the allowance only
goes down while it runs: the charges noted change no value (a kept call's work is measured by
the difference before and after it, which a charge left for later does not change), and the
allowance would have run out somewhere in the listing exactly when it is below zero at its
end. So where it is (or where the listing raises any error, which running out first might have
replaced), the allowance is set back to what it was at the start and the listing runs again,
each charge made where it falls (``_x``): the same error, at the same place, as before.
"""

from __future__ import annotations

import re
from typing import Any

from .hoist import held_again


def deferred(lines: list[str], ns: Any) -> list[str] | None:
    """The listing ``lines`` (``flowgen.legal_function``'s: ``def _legal(S):``, then its body
    ending in ``return out``) with the charges of its kept calls reached again noted and made
    at its end (see above); None where it reaches none."""
    name = next((k for k, v in ns.ns.items() if v is held_again), None)
    if name is None:
        return None
    reuse = re.compile(re.escape(name) + r"\(((?:_[fv]\d+)|(?:F\[\d+\]))\)")
    body = lines[1:]
    text = "\n".join(body)
    if reuse.search(text) is None or re.search(r"\b_(?:x|D|Dap|w0)\b", text):
        return None
    # reached again: charged at once in the run made again (_x), noted otherwise (_Dap: a
    # list's append, a call of C)
    text = reuse.sub(lambda m: f"({name}({m.group(1)}) if _x else "
                               f"(_Dap({m.group(1)}[0] - {m.group(1)}[2]) or {m.group(1)}[1]))",
                     text)
    body = text.split("\n")
    if body[-1] != "    return out":
        return None
    again = ["if not _x:", "    WORK[0] = _w0", "    _x = True", "    continue"]
    out = []
    for line in body[:-1]:
        out.append("    " + line)
        if line in ("    except RulesError as e:", "    except Exception as e:"):
            out += ["            " + x for x in again]  # the run made again, charges in place
    return [lines[0], "    _x = False", "    _w0 = WORK[0]", "    while True:",
            "        _D = []", "        _Dap = _D.append", *out,
            "        if _D:",
            f"            WORK[0] -= {ns.k(sum)}(_D)",
            "            if WORK[0] < 0:",
            *("                " + x for x in again),
            "        return out"]
