"""A group of cards laid on the table (a meld), as the engine holds it in a zone of groups."""

from __future__ import annotations


class Group(list):
    """A group of cards laid on the table (a meld): a copy of its cards that knows its zone,
    its owner and its number, so that a move can name it (``P2#1``) and effects can add to it."""

    __slots__ = ("zid", "owner", "number", "container")

    def __init__(self, cards: list, zid: int, owner: int, number: int, container: str) -> None:
        super().__init__(cards)
        self.zid = zid
        self.owner = owner
        self.number = number
        self.container = container

    def label(self) -> str:
        return f"P{self.owner}#{self.number}" if self.owner >= 0 else \
            f"{self.container}#{self.number}"

    __hash__ = None  # type: ignore[assignment]
