"""Automobiles (David Short, AEG / Pegasus): in progress, not yet in the registry (see README.md beside this file)."""
