"""The rules dicelens resolves (../shared/RULES.md): pure Python, no I/O."""
