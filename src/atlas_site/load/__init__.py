"""Stage 1: files -> raw records, each with the location it came from."""
