"""What the table keeps on disk: the journal, the tag registry, exports."""
