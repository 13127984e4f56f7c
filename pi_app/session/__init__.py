"""The session loop and its parts: input -> commit -> presentation -> scene; the lobby; computer seats."""
