"""Collation and claims: readings aligned stroke by stroke and on one grid, agreement groups, every edition's reading collated, and the stroke counts a commentary states, read and checked."""
