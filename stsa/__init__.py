"""STSA: the Swordmasters Tournament System Application for DUNE: Imperium organized play."""

__version__ = "0.1.0"
