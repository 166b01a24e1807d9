"""Every limit rulelang puts on a rules file, a scenario and a game, in one table.

A rules file is untrusted data (docs/security.md): these bounds are what keep any file, however
hostile, from hanging the machine or exhausting its memory. Each module that enforces a limit
imports it from here, so that this page is the whole list; docs/security.md explains each.
"""

from __future__ import annotations

# ---------------------------------------------------------------- reading files (yamlload, rules)
MAX_FILE_BYTES = 1_000_000  # a rules or scenario file
MAX_ALIASES = 100  # YAML aliases in one file (a billion laughs needs many)
MAX_YAML_DEPTH = 64  # nesting of YAML values
MAX_NODES = 200_000  # YAML values in one file
MAX_EXTENDS_DEPTH = 8  # a chain of extends:
# packs in one deck (deck.copies, a number or an expression): the deck's tables are made for
# the largest deck when the file is checked (10^15 packs took 4 GB there)
MAX_COPIES = 8
# a deck of its own (decks.py): copies of a card of one rank, and of an unsuited card, in one
# pack, and the cards of one pack (its tables are made for MAX_COPIES packs of it)
MAX_RANK_COPIES = 8
MAX_UNSUITED_COPIES = 16
MAX_PACK = 520

# ---------------------------------------------------------------- did-you-mean hints (errors)
# the known names looked at per hint, the candidates compared with the unknown name (those of a
# length that can be close, the ones sharing its first letter first), the hints worked out per
# file: a file of thousands of unknown names among thousands of known ones checks in seconds
HINT_NAMES = 5_000
HINT_CANDIDATES = 100
HINTS_PER_FILE = 100

# ---------------------------------------------------------------- parsing rules text (parse)
MAX_SOURCE_CHARS = 20_000  # one expression or effect string
MAX_PARSE_DEPTH = 60  # nesting of expressions and blocks
MAX_NODES_DEEP = 200  # nesting plus chain links of one expression (Python's parser nests ~200)
# rules text in one game (a file and what it extends), each piece counted as at least
# RULES_TEXT_PIECE characters: parsing and compiling costs about 45 microseconds a character of
# dense text and a millisecond a function, so that a file of a megabyte of rules text (or of
# tens of thousands of small functions) kept check busy for a minute; the bundled games have
# at most 4,000 characters in 80 pieces
MAX_RULES_TEXT = 50_000
RULES_TEXT_PIECE = 40

# ---------------------------------------------------------------- compiling (compile, codegen)
MAX_INLINE = 4  # calls of rules functions inlined within one another at most
MAX_INLINE_BODY = 60  # nodes of a function body that is inlined at most
# nodes inlined in one game at most: a fan-out of small functions calling each other would
# otherwise make source that takes minutes to compile
MAX_INLINE_TOTAL = 3000
MAX_INLINE_SRC = 4000  # a body whose source grows longer than this is called, not inlined
MAX_INLINE_DEPTH = 24  # expression depth beyond which a child is compiled on its own
MAX_NUMBER = 10**30  # products beyond this are refused: squaring in a loop grows without end

# ---------------------------------------------------------------- running rules text (runtime)
# Loop passes (for, while, comprehensions, the items a built-in walks or makes, calls of rules
# functions) allowed in one engine step: nested loops over big lists could otherwise keep the
# machine busy for hours.
MAX_WORK = 20_000_000
MAX_LOOP = 10_000  # passes of one while loop
MAX_COLLECTION = 200_000  # items of one list made by rules text (counted through nested lists)
# work (as MAX_WORK counts it) of working out every value-table entry written as an expression
# (``A: opt.ace``), all together, while a file is built: each entry is a number or a small sum
# of options, and a fresh allowance per entry let one file keep check busy for minutes
CHECK_WORK = 2_000_000
KEY_ITEMS = 1_000  # items of a value written out as a key (key: ...)
MAX_MELDS = 5_000  # sets or runs a meld finder lists

# ---------------------------------------------------------------- memoised functions (codegen)
MEMO_LIMIT = 200_000  # results remembered per function at most (then it starts afresh)
MEMO_KEY_ITEMS = 256  # a call whose list arguments hold more items is not remembered
# items (of keys and results, lists inside counted) remembered by all the memoised functions
# of one game at most: past it, they all start afresh. The memo lives as long as the game
# (across the games of a simulation), so this bounds its memory whatever the rules compute
MEMO_ITEMS = 2_000_000
MEMO_RESULT_ITEMS = 10_000  # a result with more items is not remembered
# a memo that finds fewer than MEMO_PROBE_HITS results in its last MEMO_PROBE misses (a
# function of a whole hand that changes at every turn) is dropped and the function computed
# directly for its next MEMO_PAUSE calls: keeping results never asked for again only costs
# keys, memory and garbage-collector passes over them
MEMO_PROBE = 1_024
MEMO_PROBE_HITS = 128
MEMO_PAUSE = 65_536

# ---------------------------------------------------------------- a game (engine)
MAX_ROUND_STEPS = 200_000  # steps of one round without it ending
MAX_GAME_STEPS = 20_000_000  # steps of one game
# the work (see MAX_WORK) of all the steps of one game: the allowance is per step, so rules that
# work hard at every step would otherwise make one game last for hours
MAX_GAME_WORK = 4_000_000_000  # about 45 s of the cheapest loop passes
MAX_ROUNDS = 1_000_000  # rounds of one match
MAX_MOVES = 5_000  # legal moves at one decision
MAX_LOG_TEXT = 500  # characters of one log() message kept (the text is cut, never built whole)
MAX_LOG_MESSAGES = 1_000  # log() messages a state keeps (the latest)
# cuts of cut() (the first cut, then each cut again among the tied seats): an order that ranks
# no card above another ties for ever
MAX_CUTS = 100

# ---------------------------------------------------------------- bots (agents)
# the work (see MAX_WORK) a bot may spend on one decision, over all the steps, legal-move
# listings and heuristics of the worlds it samples: counted apart from the game's own work.
# Past it, the bot chooses among the moves it has judged (see agents.GreedyAgent)
MAX_BOT_WORK = 2_000_000
# the tree search's (ismcts.py) default budget of work per decision: it plays hundreds of
# sampled worlds on to the end of the round (each playout at most ISMCTS_PLAYOUT decisions)
ISMCTS_WORK = 50_000_000
ISMCTS_PLAYOUT = 40

# ---------------------------------------------------------------- simulation (sim)
MAX_DECISIONS_PER_GAME = 2_000_000

# ---------------------------------------------------------------- research environments (encoding)
# the widest action space made of a game's move templates (encoding.py): a wider one (two card
# arguments of a big deck, say) is the index space over the legal moves, MAX_MOVES wide
MAX_ENV_ACTIONS = 20_000
MAX_WORKERS = 256  # simulate --workers: processes started at once
