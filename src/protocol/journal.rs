//! Journal records (being written).
