//! The vector files embedded in the binary at build time (`build.rs`): what
//! `conformance run` uses when no `--vectors` is given, so that a copied binary needs no
//! checkout.

include!(concat!(env!("OUT_DIR"), "/embedded_vectors.rs"));
