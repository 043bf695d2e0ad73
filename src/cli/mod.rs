//! The `pbem` command line.

pub fn main() -> i32 {
    0
}
