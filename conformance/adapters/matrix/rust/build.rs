//! Puts the rustc version into the hello `name` (the std decoder's version is the compiler's).
use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "rustc (unknown version)".into());
    println!("cargo:rustc-env=MATRIX_RUSTC_VERSION={version}");
    println!("cargo:rerun-if-changed=build.rs");
}
