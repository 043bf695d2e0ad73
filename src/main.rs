fn main() {
    std::process::exit(pbem::cli::main());
}
