"""The screens of the modes that need more than the round screen, one module a mode, named by
the mode's id (hyphens as underscores), each with a `screen(started)` that makes it. A mode with
no module here plays on the round screen."""
