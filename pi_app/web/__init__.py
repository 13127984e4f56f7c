"""The spectator page: a read-only web process (``tablekeeper web``).

It reads the journal and nothing else, through a read-only connection, and
serves what the public may know: every page is built from ``view(None)``,
the public events and the moves as ``journal export`` judges them (story),
drawn as HTML and SVG (pages, board, report) and served by aiohttp's
server on one event loop (server).
"""
