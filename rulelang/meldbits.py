"""Bit-number tables of the meld finders (melds.py): those ``runs`` reads the places a hand
holds from, as bits of one number, and whether a stretch's cards are in order already.
"""

from __future__ import annotations


def run_tables(spot_of: dict[str, list[int]], places_of: dict[str, list[list[int]]],
               suit_no: list[int], span: int, place: list[int]) -> dict[str, tuple]:
    """Per ace: spot_of's table; whether each suit's places run in the order cards are listed
    in (``place``; then so does each run, else each stretch is looked at); each card's places
    as bits of one number (bit suit * span + place per place, ``suit_no``: the card's suit)."""
    out = {}
    for ace, spots in spot_of.items():
        top: dict[int, int] = {}  # per suit, the place in order of its card at the last spot
        bits = [sum(1 << suit_no[c] * span + p for p in ps)
                for c, ps in enumerate(places_of[ace])]
        out[ace] = (spots, True, bits)
        for c in sorted((c for c in range(len(spots)) if spots[c] >= 0), key=spots.__getitem__):
            if place[c] < top.get(spots[c] // span, -1):
                out[ace] = (spots, False, bits)
                break
            top[spots[c] // span] = place[c]
    return out
