"""One module per ``guji`` subcommand; each provides ``register(subparsers)``."""
