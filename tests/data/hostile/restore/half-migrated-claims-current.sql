-- Only the first migration ran, but the version says all ten did.
-- base: v1
PRAGMA user_version = 10;
-- expect: that differs from the one vocabgame creates
