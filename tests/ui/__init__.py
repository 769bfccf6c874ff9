"""Tests of the app: Pilot runs of each screen, the snapshots (beside them in __snapshots__/), and the ui's
unit tests (rendering, the entry list, the pager)."""
