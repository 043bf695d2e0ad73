//! The engine: game directory, steps, processing, views and audit. It knows no rule.
