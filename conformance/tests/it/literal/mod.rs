//! The spec-literal code (`conformance-literal`) against the reference codec.

mod decoders;
mod utf_inf8;
