"""Translations held in step section by section: the lock, the state of each section, the notices
readers see, and `atlas-site sync` (the lock's only writer)."""
