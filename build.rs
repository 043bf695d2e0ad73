//! Embeds the scripted demo orders (orders/<system>/NN-side.yaml) so `pbem demo` works from
//! any directory.

use std::fmt::Write;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=orders");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("orders");
    let mut files = Vec::new();
    if let Ok(systems) = std::fs::read_dir(&root) {
        for system in systems.flatten() {
            println!("cargo:rerun-if-changed={}", system.path().display());
            let Ok(entries) = std::fs::read_dir(system.path()) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "yaml") {
                    files.push((
                        system.file_name().to_string_lossy().to_string(),
                        entry.file_name().to_string_lossy().to_string(),
                        path,
                    ));
                }
            }
        }
    }
    files.sort();
    let mut out = String::from("pub static DEMO_ORDERS: &[(&str, &str, &str)] = &[\n");
    for (system, name, path) in files {
        writeln!(
            out,
            "    ({system:?}, {name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("demo_orders.rs");
    std::fs::write(dest, out).unwrap();
}
