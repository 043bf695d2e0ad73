//! `pbem keygen`: a new key pair for a player.

use crate::cli::args::Keygen;
use crate::cli::output::print;
use crate::engine::{Error, exit, keyfiles};

pub fn run(a: Keygen) -> Result<i32, Error> {
    let pass = keyfiles::passphrase_from_env_or_file(a.passphrase_file.as_deref())?;
    let public = keyfiles::make_key_pair(&a.out, &a.comment, pass.as_deref())?;
    print(&format!(
        "wrote {} and {}.pub\n{}\n",
        a.out.display(),
        a.out.display(),
        public.fingerprint()
    ))?;
    Ok(exit::OK)
}
