"""table-companion: a Raspberry Pi beside a dice racing game that reads the dice, keeps the rules, shows the table."""

__version__ = "0.1.0"
