"""Stage 3: parse pages once, compute teaching numbers, and check every cross reference."""
