//! OpenSSH ed25519 keys (being written).
