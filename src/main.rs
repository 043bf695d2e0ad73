// mimalloc instead of the system allocator: a step allocates many small strings on several
// threads (verify), and glibc's malloc took about a tenth of the time (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(pbem::cli::main());
}
