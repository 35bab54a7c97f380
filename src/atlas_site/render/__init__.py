"""Stage 4: Book + parsed pages -> Output {path: bytes}, entirely in memory."""
