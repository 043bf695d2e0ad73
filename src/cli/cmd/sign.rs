//! `pbem sign`: a player signs an order file.

use crate::cli::args::Sign;
use crate::cli::output::write_or_print;
use crate::engine::{self, Error, exit, keyfiles};
use crate::protocol::keys::SecretKey;

pub fn run(a: Sign) -> Result<i32, Error> {
    let pass = keyfiles::passphrase_from_env_or_file(a.passphrase_file.as_deref())?;
    let key = SecretKey::load(&a.key, pass.as_deref())?;
    let signed = engine::order::sign_file(&a.file, &key)?;
    write_or_print(a.out.as_deref(), &signed)?;
    Ok(exit::OK)
}
