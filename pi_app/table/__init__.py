"""The physical table: its profile, its parts, start-up, the doctor and the pad read test."""
