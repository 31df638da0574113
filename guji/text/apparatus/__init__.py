"""The apparatus: the editions' own variant notes (作, 少 無 闕 脫, 有 多 …), their edits, each witness's whole reading, and the numerals the notes and claims write."""
