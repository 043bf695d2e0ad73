//! Signed documents (being written).
