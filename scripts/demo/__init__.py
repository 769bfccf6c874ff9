"""The demo's sessions, one short script each on ``engine``; ``repos`` holds their repositories' files."""
